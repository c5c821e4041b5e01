// The failure of a bounded wait for a task on a bare ManualClock: what the clock held when the
// wait gave up, and what to do next, so that a forgotten `advance` reads as such.
import Streams

/// Thrown by ``Streams/ManualClock/value(of:timeout:)-(Task<Success,Never>,_)`` when the task
/// has not finished within its real-time bound.
public struct TaskValueTimeout: Error, CustomStringConvertible {
  /// The real time waited.
  public let timeout: Duration
  /// The clock's time when the wait gave up.
  public let now: ManualClock.Instant
  /// Sleepers waiting on the clock then: tasks asleep and scheduled calls together.
  public let sleepers: Int
  /// How many of `sleepers` were scheduled calls rather than sleeping tasks.
  public let scheduledCalls: Int
  /// The earliest deadline among them, if any.
  public let nextDeadline: ManualClock.Instant?

  /// What the clock held and what to do next.
  public var description: String {
    var text =
      "The task did not finish within \(timeout.millisecondsDescription) of real time, and was cancelled. "
      + "The clock stands at \(now) with \(sleepers - scheduledCalls) task(s) asleep and \(scheduledCalls) "
      + "scheduled call(s)"
    if let nextDeadline {
      text +=
        ", the next due at \(nextDeadline). Nothing moves a ManualClock but `advance`: advance it to "
        + "\(nextDeadline) (or drive the code with a VirtualTimeRunner, whose `finish` moves time itself)."
    } else {
      text +=
        ". Nothing waits on this clock: the task waits for something else (an input nobody finishes, "
        + "a continuation nobody resumes, a sleep on another clock)."
    }
    return text
  }
}
