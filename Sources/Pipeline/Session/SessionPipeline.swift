// One search field's pipeline: texts → terms → debounce → distinct → cancel-previous search →
// events. Built from the Streams operators, pushed (fused): a session is a few locked states
// and no task; a task runs only for a search that must wait.
import Streams

/// The per-session composition of the operators.
///
/// - debounce: a cleared field passes at once (and so cancels the search in flight); a term
///   waits for the quiet period.
/// - distinct until changed on the case-folded key, where a clear counts as a value: "taylor",
///   "", "taylor" searches twice (the second answer from the cache). Filtering clears before
///   the distinct step, the usual recipe, would leave the screen empty instead.
/// - cancel-previous: a newer settled term cancels the search in flight (`superseded`), a clear
///   cancels it too (`cleared`).
///
/// A class, shared by every session: each session's operators capture it in several closures,
/// and a struct holding the configuration would be copied into each (a kilobyte per session).
final class SessionPipeline<C: Clock>: Sendable where C.Duration == Duration {
  let configuration: PipelineConfiguration
  let fanOut: CategoryFanOut<C>
  let emitter: EventEmitter<C>
  let clock: C

  init(configuration: PipelineConfiguration, fanOut: CategoryFanOut<C>, emitter: EventEmitter<C>, clock: C) {
    self.configuration = configuration
    self.fanOut = fanOut
    self.emitter = emitter
    self.clock = clock
  }

  private enum Output: Sendable {
    case partial(term: String, result: CategoryResult)
    case waiting(term: String, category: String, wait: Duration)
    case answered(term: String, outcome: SearchOutcome, elapsedMilliseconds: Int64)
  }

  /// The child of one settled term: the search, answered in full (or per category first). What
  /// can be answered at once is answered here, on the thread the term settled on, with no task.
  private func searchChild(_ term: SearchTerm, emit: SwitchMapEmitter<Output>) -> SwitchMapChild {
    guard !term.isCleared else { return .finished }
    let start = clock.now
    var progress: (@Sendable (CategoryResult) -> Void)?
    if configuration.progressive {
      progress = { @Sendable result in emit(.partial(term: term.text, result: result)) }
    }
    let work = fanOut.start(term, progress: progress) { category, wait in
      emit(.waiting(term: term.text, category: category, wait: wait))
    }
    switch work {
    case .answered(let outcome):
      emit(.answered(term: term.text, outcome: outcome, elapsedMilliseconds: 0))
      return .finished
    case .waiting(let begin):
      // No task: the categories' answers arrive by callback, and the last one ends the child.
      let cancel = begin { [clock] outcome in
        let elapsed = start.duration(to: clock.now).wholeMilliseconds
        emit(.answered(term: term.text, outcome: outcome, elapsedMilliseconds: elapsed))
        emit.finish()
      }
      return .pending(cancel: cancel)
    }
  }

  /// Starts the session's operators on `terms`, pushed: each term is handled on the thread that
  /// feeds it, and each event is emitted on the thread that produced it. `ended` is called once
  /// the input has finished and the last search has answered; not after `cancel()` of the
  /// returned subscription.
  func start(_ terms: AsyncFeed<SearchTerm>, session: String?, ended: @escaping @Sendable () -> Void)
    -> PushSubscription
  {
    let debounce = configuration.debounce
    let quietPeriod: @Sendable (SearchTerm) -> Duration = { $0.isCleared ? .zero : debounce }
    let distinctKey: @Sendable (SearchTerm) -> String = { $0.key }
    let search: @Sendable (SearchTerm, SwitchMapEmitter<Output>) -> SwitchMapChild = { [self] term, emit in
      searchChild(term, emit: emit)
    }
    let events =
      terms
      .debounce(clock: clock, quietPeriod: quietPeriod)
      .removeDuplicates(by: distinctKey)
      .switchMap(starting: search)
    // The operators fail only when the input fails, and a feed never does.
    return events.subscribe(
      PushReceiver(element: { [self] event in handle(event, session: session) }, end: { _ in ended() }))
  }

  private func handle(_ event: SwitchMapEvent<SearchTerm, Output>, session: String?) {
    switch event {
    case .started(let term):
      emitter.emit(term.isCleared ? .cleared : .search(term: term.text), session: session)
    case .cancelled(let term, by: let newer):
      // A clear has no search to cancel.
      guard !term.isCleared else { return }
      emitter.emit(.cancelled(term: term.text, reason: newer.isCleared ? .cleared : .superseded), session: session)
    case .output(.waiting(let term, let category, let wait)):
      emitter.emit(.waiting(term: term, category: category, waitMilliseconds: wait.wholeMilliseconds), session: session)
    case .output(.partial(let term, let result)):
      emitter.emit(.partial(term: term, category: result), session: session)
    case .output(.answered(let term, let outcome, let elapsed)):
      if let failure = outcome.failure {
        emitter.emit(.error(term: term, error: failure), session: session)
      } else {
        emitter.emit(
          .results(term: term, source: outcome.source, categories: outcome.categories, elapsedMilliseconds: elapsed),
          session: session)
      }
    }
  }
}
