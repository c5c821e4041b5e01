// Where input enters a running pipeline. Everything happens on the caller's thread: a replay
// feeds a recorded keystroke from its driving thread straight through the session's operators,
// pushed, and a live run from the task reading its input, which therefore cannot run ahead of
// the pipeline (backpressure: nothing queues between the reader and the operators).
import Streams
import Synchronization

/// Routes input records to per-session operators, reports bad lines, forgets idle sessions, and
/// tells when every session has ended.
///
/// - Element: ``send(_:)`` counts the line, then emits an `input_error` for a bad one, or hands
///   the keystroke's term to its session's operators, starting them for a new session.
/// - Finish: ``finish()`` finishes every session's feed, in session-name order (so a replay's
///   last events come out in the same order in every process); ``ended()`` returns once each
///   session's last search has answered.
/// - Cancellation: ``cancel()`` stops every session's operators (their searches are cancelled)
///   and makes ``ended()`` return at once; later sends are ignored.
final class PipelineInlet<C: Clock>: Sendable where C.Duration == Duration {
  private struct State {
    var router: SessionRouter<C>
    /// Sessions started and not yet ended.
    var open = 0
    var finished = false
    var cancelled = false
    var sweep: ClockWake?
    var waiter: UnsafeContinuation<Void, Never>?

    /// The waiter to resume once every session has ended after the finish (or on cancel).
    mutating func takeWaiterIfDone() -> UnsafeContinuation<Void, Never>? {
      guard cancelled || (finished && open == 0) else { return nil }
      defer { waiter = nil }
      return waiter
    }
  }

  private let state: Mutex<State>
  private let configuration: PipelineConfiguration
  private let session: SessionPipeline<C>
  private let emitter: EventEmitter<C>
  private let clock: C

  init(configuration: PipelineConfiguration, session: SessionPipeline<C>, emitter: EventEmitter<C>, clock: C) {
    self.configuration = configuration
    self.session = session
    self.emitter = emitter
    self.clock = clock
    state = Mutex(State(router: SessionRouter(idleTimeout: configuration.sessionIdleTimeout, clock: clock)))
  }

  /// Takes one input record; see ``PipelineInlet``.
  func send(_ input: InputRecord) {
    emitter.countInputLine()
    switch input {
    case .invalid(let line, let reason):
      emitter.emit(.inputError(line: line, reason: reason), session: nil)
    case .keystroke(let keystroke, _):
      var term = SearchTerm(keystroke.term)
      if term.isBelow(minimumLength: configuration.minimumTermLength) { term = SearchTerm("") }
      let route = state.withLock { state -> (feed: AsyncFeed<SearchTerm>, isNew: Bool)? in
        guard !state.finished, !state.cancelled else { return nil }
        let route = state.router.feed(for: keystroke.session)
        if route.isNew { state.open += 1 }
        return route
      }
      guard let route else { return }
      if route.isNew { start(route.feed, session: keystroke.session) }
      route.feed.yield(term)
    }
  }

  /// Ends the input: pending terms settle and the last searches complete.
  func finish() {
    let sessions = state.withLock { state -> [SessionRouter<C>.Session] in
      guard !state.finished else { return [] }
      state.finished = true
      state.sweep?.cancel()
      state.sweep = nil
      return state.router.takeAll()
    }
    for session in sessions { session.input.finish() }
    resumeWaiterIfDone()
  }

  /// Stops every session's operators: their searches in flight are cancelled.
  func cancel() {
    let sessions = state.withLock { state -> [SessionRouter<C>.Session] in
      state.cancelled = true
      state.sweep?.cancel()
      state.sweep = nil
      return state.router.takeAll()
    }
    for session in sessions { session.operators?.cancel() }
    resumeWaiterIfDone()
  }

  /// Returns once the input has finished and every session has ended, or once cancelled.
  func ended() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        state.waiter = continuation
        return state.takeWaiterIfDone() != nil
      }
      if now { continuation.resume() }
    }
  }

  /// Starts a new session's operators on `feed`, and the idle sweep if it is not running.
  private func start(_ feed: AsyncFeed<SearchTerm>, session name: String?) {
    let operators = session.start(feed, session: name) { [self] in sessionEnded() }
    state.withLock { state in
      state.router.started(operators, for: name)
      if state.sweep == nil { state.sweep = scheduleSweep() }
    }
  }

  private func sessionEnded() {
    state.withLock { $0.open -= 1 }
    resumeWaiterIfDone()
  }

  private func resumeWaiterIfDone() {
    state.withLock { $0.takeWaiterIfDone() }?.resume()
  }

  /// The next sweep, half a timeout from now (at least a millisecond, so that it never runs at
  /// once, under the lock its caller holds).
  private func scheduleSweep() -> ClockWake {
    let interval = max(configuration.sessionIdleTimeout / 2, .milliseconds(1))
    return ClockWake.schedule(on: clock, at: clock.now.advanced(by: interval)) { [self] in sweepIdleSessions() }
  }

  /// Finishes the sessions idle for the timeout; sweeps again later while any session is open.
  private func sweepIdleSessions() {
    let idle = state.withLock { state -> [(name: String, session: SessionRouter<C>.Session)] in
      guard !state.finished, !state.cancelled else { return [] }
      let idle = state.router.takeIdleSessions()
      state.sweep = state.router.isEmpty ? nil : scheduleSweep()
      return idle
    }
    for (name, session) in idle {
      session.input.finish()
      configuration.log?(.sessionForgotten(name))
    }
  }
}
