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
/// A class, shared by every session: the operators are built once, here, and each session's
/// events come back to it; a struct holding the configuration would be copied into each
/// session (a kilobyte per session).
final class SessionPipeline<C: Clock>: Sendable where C.Duration == Duration {
  let configuration: PipelineConfiguration
  let fanOut: CategoryFanOut<C>
  let emitter: EventEmitter<C>
  let clock: C

  /// A session's operators, each stage calling the next directly: debounce → distinct →
  /// cancel-previous → the session's events. Composed of concrete types, not subscribed through
  /// `PushReceiver`: through its existential, every keystroke ran each stage's generic code,
  /// which looked up its types' metadata at run time (a third of a replay's instructions).
  typealias Events = SessionEvents<C>
  typealias Searches = SwitchMapStorage<SessionInput, Output, Events>
  typealias Distinct = RemoveDuplicatesStorage<SessionInput, String, Searches>
  typealias Debounced = DebounceStorage<SessionInput, C, Distinct>

  /// One session's operators: where its terms go in, and the last stage, whose cancellation
  /// stops them all.
  struct Operators: Sendable {
    let input: Debounced
    let searches: Searches
  }

  /// The closures of the operators, made once and shared by every session: made per session,
  /// each would allocate its context (three per session, a tenth of its memory).
  private let quietPeriod: @Sendable (SessionInput) -> Duration
  private let key: @Sendable (SessionInput) -> String
  private let child: Searches.Start

  init(configuration: PipelineConfiguration, fanOut: CategoryFanOut<C>, emitter: EventEmitter<C>, clock: C) {
    self.configuration = configuration
    self.fanOut = fanOut
    self.emitter = emitter
    self.clock = clock
    let debounce = configuration.debounce
    let progressive = configuration.progressive
    quietPeriod = { $0.term.isCleared ? .zero : debounce }
    key = { $0.term.key }
    child = { input, emit in
      Self.searchChild(input, emit: emit, fanOut: fanOut, clock: clock, progressive: progressive)
    }
  }

  /// What a search's child reports, each with the input line of the keystroke searched.
  enum Output: Sendable {
    case partial(term: String, result: CategoryResult, line: Int)
    case waiting(term: String, category: String, wait: Duration, line: Int)
    case answered(term: String, outcome: SearchOutcome, elapsedMilliseconds: Int64, line: Int)
  }

  /// The child of one settled term: the search, answered in full (or per category first). What
  /// can be answered at once is answered here, on the thread the term settled on, with no task.
  private static func searchChild(
    _ input: SessionInput, emit: SwitchMapEmitter<Output>, fanOut: CategoryFanOut<C>, clock: C, progressive: Bool
  ) -> SwitchMapChild {
    let term = input.term
    let line = input.line
    guard !term.isCleared else { return .finished }
    let start = clock.now
    var progress: (@Sendable (CategoryResult) -> Void)?
    if progressive {
      progress = { @Sendable result in emit(.partial(term: term.text, result: result, line: line)) }
    }
    let work = fanOut.start(term, progress: progress) { category, wait in
      emit(.waiting(term: term.text, category: category, wait: wait, line: line))
    }
    switch work {
    case .answered(let outcome):
      emit(.answered(term: term.text, outcome: outcome, elapsedMilliseconds: 0, line: line))
      return .finished
    case .waiting(let begin):
      // No task: the categories' answers arrive by callback, and the last one ends the child.
      let cancel = begin { [clock] outcome in
        let elapsed = start.duration(to: clock.now).wholeMilliseconds
        emit(.answered(term: term.text, outcome: outcome, elapsedMilliseconds: elapsed, line: line))
        emit.finish()
      }
      return .pending(cancel: cancel)
    }
  }

  /// A new session's operators, pushed: each term handed to `input` is handled on the thread
  /// that hands it, and each event is emitted on the thread that produced it. Its end (handed to
  /// `input`) settles the pending term; `observer` hears once that it has passed through and the
  /// last search has answered, and not after `searches` is cancelled. Only builds: nothing runs
  /// until a term arrives, so a caller may build under its lock.
  func operators(session: String?, observer: any SessionEndObserver) -> Operators {
    let searches = Searches(child: child, receiver: SessionEvents(pipeline: self, session: session, observer: observer))
    let distinct = Distinct(key: key, receiver: searches)
    let input = Debounced(clock: clock, quietPeriod: quietPeriod, receiver: distinct)
    searches.follow(PushSubscription(distinct))
    distinct.follow(PushSubscription(input))
    return Operators(input: input, searches: searches)
  }

  func handle(_ event: SwitchMapEvent<SessionInput, Output>, session: String?) {
    switch event {
    case .started(let input):
      let kind: SearchEvent.Kind = input.term.isCleared ? .cleared : .search(term: input.term.text)
      emitter.emit(kind, session: session, inputLine: input.line)
    case .cancelled(let input, by: let newer):
      // A clear has no search to cancel.
      guard !input.term.isCleared else { return }
      let reason: CancelReason = newer.term.isCleared ? .cleared : .superseded
      emitter.emit(.cancelled(term: input.term.text, reason: reason), session: session, inputLine: input.line)
    case .output(.waiting(let term, let category, let wait, let line)):
      emitter.emit(
        .waiting(term: term, category: category, waitMilliseconds: wait.wholeMilliseconds), session: session,
        inputLine: line)
    case .output(.partial(let term, let result, let line)):
      emitter.emit(.partial(term: term, category: result), session: session, inputLine: line)
    case .output(.answered(let term, let outcome, let elapsed, let line)):
      if let failure = outcome.failure {
        emitter.emit(.error(term: term, error: failure), session: session, inputLine: line)
      } else {
        emitter.emit(
          .results(term: term, source: outcome.source, categories: outcome.categories, elapsedMilliseconds: elapsed),
          session: session, inputLine: line)
      }
    }
  }
}

/// Told when a session has ended: its input finished and its last search answered.
protocol SessionEndObserver: AnyObject, Sendable {
  /// A session ended.
  func sessionEnded()
}

/// Where one session's events go: emitted for the session; the end tells the observer. (The
/// operators fail only when their input fails, and the inlet never fails it.)
final class SessionEvents<C: Clock>: PushInput, Sendable where C.Duration == Duration {
  typealias Element = SwitchMapEvent<SessionInput, SessionPipeline<C>.Output>

  let pipeline: SessionPipeline<C>
  let session: String?
  let observer: any SessionEndObserver

  init(pipeline: SessionPipeline<C>, session: String?, observer: any SessionEndObserver) {
    self.pipeline = pipeline
    self.session = session
    self.observer = observer
  }

  func receive(_ event: Element) { pipeline.handle(event, session: session) }

  func receiveEnd(_ error: (any Error)?) { observer.sessionEnded() }
}

/// One keystroke's term on its way through a session's operators, with the number of the input
/// line it came from, so that every event names the keystroke it is about.
struct SessionInput: Sendable {
  let term: SearchTerm
  let line: Int
}
