// Sessions come and go: each gets its own operators, and one idle for long
// enough is forgotten, so memory stays bounded however many users pass through. Idle sessions
// are swept by a timer of the run's clock, every half timeout while any session is open: a
// session idle for the timeout is forgotten at most half a timeout later, whether or not more
// input comes.
import Streams

/// Routes terms to per-session operators and finds idle sessions. Not thread-safe: PipelineInlet
/// holds it behind its lock, and reads the clock for it before taking the lock.
struct SessionRouter<C: Clock> where C.Duration == Duration {
  /// A class, so that the router's table holds a reference per session rather than the whole
  /// state: with 100,000 sessions the table's buckets were a tenth of the memory.
  ///
  /// `@unchecked Sendable`: `operators` never changes; `lastActivity` is read and written only by
  /// the router's owner, under its lock.
  final class Session: @unchecked Sendable {
    let operators: SessionPipeline<C>.Operators
    // Unchecked: only the router's owner touches it, under its lock (see above); the dynamic
    // access check cost more per keystroke than the write it guarded.
    @exclusivity(unchecked) var lastActivity: C.Instant

    init(operators: SessionPipeline<C>.Operators, lastActivity: C.Instant) {
      self.operators = operators
      self.lastActivity = lastActivity
    }
  }

  let idleTimeout: Duration
  private var sessions: [String: Session] = [:]
  /// The session routed to last, under its key: most lines come from the session of the line
  /// before (a replay of one field, a person typing), and comparing its name costs less than
  /// hashing it. Cleared whenever sessions are removed.
  private var last: (key: String, session: Session)?

  init(idleTimeout: Duration) {
    self.idleTimeout = idleTimeout
  }

  /// Whether any session is open.
  var isEmpty: Bool { sessions.isEmpty }

  /// Where the terms of `session` (nil names the unnamed session) go in, the session marked
  /// active at `now`, and whether the session is new, its operators built by `pipeline` for
  /// `observer` (building them runs nothing: no call leaves the router's lock).
  mutating func input(
    for session: String?, now: C.Instant, building pipeline: SessionPipeline<C>, observer: any SessionEndObserver
  ) -> (input: SessionPipeline<C>.Debounced, isNew: Bool) {
    // The parser turns `"session": ""` into nil, so "" never reaches here as a name.
    let key = session ?? ""
    // At most one hash lookup per keystroke: this runs for every line of input. The last session
    // is used where it is stored, not bound: a binding retained and released it every keystroke.
    if last?.key == key, let input = last?.session.operators.input {
      last?.session.lastActivity = now
      return (input, false)
    }
    if let known = sessions[key] {
      known.lastActivity = now
      last = (key, known)
      return (known.operators.input, false)
    }
    let new = Session(operators: pipeline.operators(session: session, observer: observer), lastActivity: now)
    sessions[key] = new
    last = (key, new)
    return (new.operators.input, true)
  }

  /// Removes `session` (nil names the unnamed session): it has ended, and a later keystroke
  /// naming it starts a new one.
  mutating func remove(_ session: String?) {
    sessions[session ?? ""] = nil
    last = nil
  }

  /// Removes the sessions idle for the timeout at `now` and returns them, sorted by name: a
  /// dictionary's order changes from process to process, and the order sessions are finished in
  /// is the order their last events come out in.
  mutating func takeIdleSessions(now: C.Instant) -> [(name: String, session: Session)] {
    let idle = sessions.filter { $0.value.lastActivity.advanced(by: idleTimeout) <= now }.keys.sorted()
    if !idle.isEmpty { last = nil }
    return idle.compactMap { name in sessions.removeValue(forKey: name).map { (name, $0) } }
  }

  /// Removes every session and returns them, sorted by name (see ``takeIdleSessions(now:)``). It
  /// runs once, at the end, when every session is still here: one array of names is sorted in
  /// place, and the sessions are taken by reference.
  mutating func takeAll() -> [Session] {
    var names = Array(sessions.keys)
    names.sort()
    var all: [Session] = []
    all.reserveCapacity(names.count)
    for name in names {
      if let session = sessions[name] { all.append(session) }
    }
    sessions.removeAll()
    last = nil
    return all
  }
}
