// Sessions come and go: each gets its own input stream (and so its own pipeline task), and one
// idle for long enough is forgotten, so memory stays bounded however many users pass through.
// Idle sessions are looked for only when a line arrives (there is no timer): a session idle for
// the timeout is forgotten at the first line after, at most half a timeout later.

/// Routes terms to per-session streams and forgets idle sessions.
struct SessionRouter<C: Clock> where C.Duration == Duration {
  private struct Session {
    var input: InputFeed<SearchTerm>
    var lastActivity: C.Instant
  }

  private let idleTimeout: Duration
  private let clock: C
  private var sessions: [String: Session] = [:]
  private var nextSweep: C.Instant

  init(idleTimeout: Duration, clock: C) {
    self.idleTimeout = idleTimeout
    self.clock = clock
    nextSweep = clock.now.advanced(by: idleTimeout)
  }

  /// Sends `term` to `session`'s stream, calling `start` with a new stream for a new session.
  mutating func send(_ term: SearchTerm, to session: String?, start: (InputFeed<SearchTerm>) -> Void) {
    // The parser turns `"session": ""` into nil, so "" never reaches here as a name.
    let key = session ?? ""
    let now = clock.now
    // One hash lookup per keystroke: this runs for every line of input.
    if let index = sessions.index(forKey: key) {
      sessions.values[index].lastActivity = now
      sessions.values[index].input.yield(term)
      return
    }
    let input = InputFeed<SearchTerm>()
    sessions[key] = Session(input: input, lastActivity: now)
    start(input)
    input.yield(term)
  }

  /// Finishes the streams of sessions idle for the timeout; returns their names. Sweeps at most
  /// once per half timeout, so the check costs nothing per keystroke.
  mutating func forgetIdleSessions() -> [String] {
    let now = clock.now
    guard now >= nextSweep else { return [] }
    nextSweep = now.advanced(by: idleTimeout / 2)
    // Sorted: a dictionary's order changes from process to process, and the order sessions
    // are finished in is the order their last events come out in.
    let forgotten = sessions.filter { $0.value.lastActivity.advanced(by: idleTimeout) <= now }.keys.sorted()
    for key in forgotten {
      sessions.removeValue(forKey: key)?.input.finish()
    }
    return forgotten
  }

  /// Finishes every session's stream: pending terms settle and the last searches complete.
  /// Sessions are finished in the order of their names, so a replay's last events come out in
  /// the same order in every process.
  mutating func finishAll() {
    for key in sessions.keys.sorted() { sessions[key]?.input.finish() }
    sessions.removeAll()
  }
}
