// One search field's pipeline: texts → terms → debounce → distinct → cancel-previous search →
// events. Built from the Streams operators; one runs per session.
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
struct SessionPipeline<C: Clock>: Sendable where C.Duration == Duration {
  let configuration: PipelineConfiguration
  let fanOut: CategoryFanOut<C>
  let emitter: EventEmitter<C>
  let clock: C

  private enum Output: Sendable {
    case partial(term: String, result: CategoryResult)
    case answered(term: String, outcome: SearchOutcome, elapsedMilliseconds: Int64)
  }

  /// Runs until `terms` finishes and the last search has answered, or until cancelled.
  func run(_ terms: AsyncStream<SearchTerm>, session: String?) async {
    let debounce = configuration.debounce
    let progressive = configuration.progressive
    let fanOut = fanOut
    let clock = clock
    let events = terms
      .debounce(clock: clock) { $0.isCleared ? .zero : debounce }
      .removeDuplicates(by: { $0.key })
      .switchMap { (term: SearchTerm, emit: SwitchMapEmitter<Output>) in
        guard !term.isCleared else { return }
        let start = clock.now
        let progress: (@Sendable (CategoryResult) -> Void)? = progressive
          ? { emit(.partial(term: term.text, result: $0)) } : nil
        let outcome = await fanOut.search(term, progress: progress)
        let elapsed = start.duration(to: clock.now).wholeMilliseconds
        emit(.answered(term: term.text, outcome: outcome, elapsedMilliseconds: elapsed))
      }
    do {
      for try await event in events {
        switch event {
        case .started(let term):
          emitter.emit(term.isCleared ? .cleared : .search(term: term.text), session: session)
        case .cancelled(let term, by: let newer):
          // A clear has no search to cancel.
          guard !term.isCleared else { continue }
          emitter.emit(
            .cancelled(term: term.text, reason: newer.isCleared ? .cleared : .superseded), session: session)
        case .output(.partial(let term, let result)):
          emitter.emit(.partial(term: term, category: result), session: session)
        case .output(.answered(let term, let outcome, let elapsed)):
          if let failure = outcome.failure {
            emitter.emit(.error(term: term, error: failure), session: session)
          } else {
            emitter.emit(
              .results(
                term: term, source: outcome.source, categories: outcome.categories,
                elapsedMilliseconds: elapsed),
              session: session)
          }
        }
      }
    } catch {
      // The operators throw only what the input throws; an AsyncStream never does. Cancellation
      // ends the loop quietly: the run reports open searches as cancelled for shutdown.
    }
  }
}
