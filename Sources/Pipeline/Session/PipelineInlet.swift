// Where input enters a running pipeline. Routing happens on the caller's thread: a replay feeds
// keystrokes from its driving thread straight into the sessions' feeds, without waking a task
// per keystroke just to route it (that hop was a fifth of a replay's jobs).
import Synchronization

/// A session's feed, handed to the pipeline's run to start the session's operators on.
struct SessionStart: Sendable {
  let terms: InputFeed<SearchTerm>
  let session: String?
}

/// Routes input lines to per-session feeds, reports bad lines, and forgets idle sessions.
///
/// - Element: ``send(_:)`` counts the line, then emits an `input_error` for a bad one, or
///   routes the keystroke's term to its session, announcing a new session on ``sessionStarts``.
/// - Finish: ``finish()`` finishes every session's feed, in session-name order (so a replay's
///   last events come out in the same order in every process), then ``sessionStarts``.
/// - Cancellation: the consumers of the feeds stop reading; later sends are ignored by them.
final class PipelineInlet<C: Clock>: Sendable where C.Duration == Duration {
  /// New sessions, each to be run by the pipeline; finished by ``finish()``.
  let sessionStarts = InputFeed<SessionStart>()
  private let router: Mutex<SessionRouter<C>>
  private let configuration: PipelineConfiguration
  private let emitter: EventEmitter<C>

  init(configuration: PipelineConfiguration, emitter: EventEmitter<C>, clock: C) {
    self.configuration = configuration
    self.emitter = emitter
    router = Mutex(SessionRouter(idleTimeout: configuration.sessionIdleTimeout, clock: clock))
  }

  /// Takes one input line; see ``PipelineInlet``.
  func send(_ input: PipelineInput) {
    emitter.countInputLine()
    switch input {
    case .invalid(let line, let reason):
      emitter.emit(.inputError(line: line, reason: reason), session: nil)
    case .keystroke(let keystroke):
      var term = SearchTerm(keystroke.term)
      if term.isBelow(minimumLength: configuration.minimumTermLength) { term = SearchTerm("") }
      let forgotten = router.withLock { router in
        router.send(term, to: keystroke.session) { terms in
          sessionStarts.yield(SessionStart(terms: terms, session: keystroke.session))
        }
        return router.forgetIdleSessions()
      }
      for session in forgotten { configuration.log?(.sessionForgotten(session)) }
    }
  }

  /// Ends the input: pending terms settle and the last searches complete.
  func finish() {
    router.withLock { $0.finishAll() }
    sessionStarts.finish()
  }
}
