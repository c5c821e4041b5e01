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
final class PipelineInlet<C: Clock>: SessionEndObserver, Sendable where C.Duration == Duration {
  /// What the lock guards: the sessions' routes, and the machine that decides the inlet's life.
  private struct State {
    var router: SessionRouter<C>
    var machine = PipelineInletStateMachine<UnsafeContinuation<Void, Never>, ClockWake>()
  }

  private let state: Mutex<State>
  private let configuration: PipelineConfiguration
  private let observers: Observers
  private let session: SessionPipeline<C>
  private let emitter: EventEmitter<C>
  private let clock: C

  init(configuration: PipelineConfiguration, session: SessionPipeline<C>, emitter: EventEmitter<C>, clock: C) {
    self.configuration = configuration
    observers = Observers(configuration.observers)
    self.session = session
    self.emitter = emitter
    self.clock = clock
    state = Mutex(State(router: SessionRouter(idleTimeout: configuration.sessionIdleTimeout)))
  }

  /// How many input lines were taken, good or bad.
  var inputLines: Int { state.withLock { $0.machine.inputLines } }

  /// Takes one input record; see ``PipelineInlet``.
  func send(_ input: InputRecord) {
    switch input {
    case .invalid(let line, let reason):
      state.withLock { _ = $0.machine.lineArrived() }
      emitter.emit(.inputError(line: line, reason: reason), session: nil, inputLine: line)
    case .keystroke(let keystroke, let line):
      var term = SearchTerm(keystroke.term)
      if term.isBelow(minimumLength: configuration.minimumTermLength) { term = SearchTerm("") }
      let now = clock.now
      let route = state.withLock { state -> (input: SessionPipeline<C>.Debounced, sweep: Bool)? in
        guard state.machine.lineArrived() else { return nil }
        let route = state.router.input(for: keystroke.session, now: now, building: session, observer: self)
        if keystroke.endsSession { state.router.remove(keystroke.session) }
        return (route.input, route.isNew && state.machine.sessionStarted())
      }
      observers.tell { .keystroke(session: keystroke.session) }
      guard let route else { return }
      if route.sweep { scheduleSweep() }
      // The instant read above is the keystroke's: its quiet period counts from there.
      route.input.receive(SessionInput(term: term, line: line), at: now)
      // Its end settles the term at once: searched now, and the session's last search.
      if keystroke.endsSession { route.input.receiveEnd(nil) }
    }
  }

  /// Ends the input: pending terms settle and the last searches complete.
  func finish() {
    let (sessions, sweep) = state.withLock { state in
      let stop = state.machine.finish()
      return (stop.takeSessions ? state.router.takeAll() : [], stop.cancelSweep)
    }
    sweep?.cancel()
    for session in sessions { session.operators.input.receiveEnd(nil) }
    resumeWaiterIfDone()
  }

  /// Stops every session's operators: their searches in flight are cancelled.
  func cancel() {
    let (sessions, sweep) = state.withLock { state in
      let stop = state.machine.cancel()
      return (stop.takeSessions ? state.router.takeAll() : [], stop.cancelSweep)
    }
    sweep?.cancel()
    for session in sessions { session.operators.searches.cancel() }
    resumeWaiterIfDone()
  }

  /// Returns once the input has finished and every session has ended, or once cancelled.
  func ended() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      state.withLock { $0.machine.wait(continuation) }?.resume()
    }
  }

  func sessionEnded() {
    state.withLock { $0.machine.sessionEnded() }?.resume()
  }

  private func resumeWaiterIfDone() {
    state.withLock { $0.machine.takeWaiterIfDone() }?.resume()
  }

  /// Schedules the next sweep, half a timeout from now (at least a millisecond, so that it never
  /// runs at once, on this thread), with the lock released; keeps its wake for finish and cancel
  /// to stop, or stops it at once when one of them came meanwhile.
  private func scheduleSweep() {
    let interval = max(configuration.sessionIdleTimeout / 2, .milliseconds(1))
    let wake = ClockWake.schedule(on: clock, at: clock.now.advanced(by: interval)) { [self] in sweepIdleSessions() }
    if state.withLock({ $0.machine.sweepScheduled(wake) }) { wake.cancel() }
  }

  /// Finishes the sessions idle for the timeout; sweeps again later while any session is open.
  private func sweepIdleSessions() {
    let now = clock.now
    let (idle, again) = state.withLock { state -> ([(name: String, session: SessionRouter<C>.Session)], Bool) in
      guard state.machine.sweepFires() else { return ([], false) }
      let idle = state.router.takeIdleSessions(now: now)
      return (idle, state.machine.swept(sessionsLeft: !state.router.isEmpty))
    }
    if again { scheduleSweep() }
    for (name, session) in idle {
      session.operators.input.receiveEnd(nil)
      observers.tell { .sessionForgotten(name) }
      configuration.log?(.sessionForgotten(name))
    }
  }
}
