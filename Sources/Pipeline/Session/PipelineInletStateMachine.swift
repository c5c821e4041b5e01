// The decisions of PipelineInlet, as a plain value: whether input is still taken, when the idle
// sweep is scheduled, when the run has ended. Each event returns what to do (schedule or stop the
// sweep, resume whoever waits for the end), and the inlet does it after releasing its lock.

/// An inlet's life: taking input, then finished (the sessions settle) or cancelled; the idle
/// sweep scheduled while any session is open; the end once every session has ended after the
/// finish, or at once on cancel.
///
/// Generic over who waits for the end (`Waiter`) and the sweep's scheduled wake (`Wake`), which
/// it only keeps and hands back: a suspended task and a clock's wake in the inlet, plain values in
/// its tests.
struct PipelineInletStateMachine<Waiter, Wake> {
  /// Input lines taken, good or bad, for the summary: counted under the lock every keystroke
  /// takes anyway, rather than under the emitter's, a second lock per line.
  private(set) var inputLines = 0
  /// Sessions started and not yet ended.
  private(set) var open = 0
  private(set) var finished = false
  private(set) var cancelled = false
  /// A sweep is scheduled, or about to be by the thread told to schedule it.
  private(set) var sweepScheduled = false
  /// The scheduled sweep's wake, to stop on finish or cancel.
  private var sweep: Wake?
  private var waiter: Waiter?

  init() {}

  /// Whether input is still routed: neither finished nor cancelled.
  var isTaking: Bool { !finished && !cancelled }

  /// A line arrived, good or bad: counts it; true when it is to be routed.
  mutating func lineArrived() -> Bool {
    inputLines += 1
    return isTaking
  }

  /// A routed line started a new session. True when the caller must schedule the idle sweep:
  /// the first open session starts it.
  mutating func sessionStarted() -> Bool {
    open += 1
    guard !sweepScheduled else { return false }
    sweepScheduled = true
    return true
  }

  /// A session ended; returns the waiter to resume if that was the end of the run.
  mutating func sessionEnded() -> Waiter? {
    open -= 1
    return takeWaiterIfDone()
  }

  /// What finishing or cancelling asks of the inlet.
  struct Stop {
    /// Whether to take every session from the router (to end or cancel them).
    var takeSessions: Bool
    /// The scheduled sweep to stop, if any.
    var cancelSweep: Wake?
  }

  /// The input ended. Sessions are taken only the first time; a second finish does nothing.
  mutating func finish() -> Stop {
    guard !finished else { return Stop(takeSessions: false, cancelSweep: nil) }
    finished = true
    defer { sweep = nil }
    return Stop(takeSessions: true, cancelSweep: sweep)
  }

  /// The run is cancelled: every session is stopped, whatever came before.
  mutating func cancel() -> Stop {
    cancelled = true
    defer { sweep = nil }
    return Stop(takeSessions: true, cancelSweep: sweep)
  }

  /// The sweep's wake was scheduled (with the lock released). True when it must be stopped at
  /// once: finish or cancel came meanwhile.
  mutating func sweepScheduled(_ wake: Wake) -> Bool {
    guard isTaking else { return true }
    sweep = wake
    return false
  }

  /// The sweep fired: true when idle sessions are to be taken (neither finished nor cancelled).
  func sweepFires() -> Bool { isTaking }

  /// The sweep took the idle sessions: true when the caller must schedule the next one, while
  /// any session is left.
  mutating func swept(sessionsLeft: Bool) -> Bool {
    sweepScheduled = sessionsLeft
    return sessionsLeft
  }

  /// `waiter` waits for the end; returned at once when the end has come.
  mutating func wait(_ waiter: Waiter) -> Waiter? {
    self.waiter = waiter
    return takeWaiterIfDone()
  }

  /// The waiter to resume once every session has ended after the finish (or on cancel).
  mutating func takeWaiterIfDone() -> Waiter? {
    guard cancelled || (finished && open == 0) else { return nil }
    defer { waiter = nil }
    return waiter
  }
}
