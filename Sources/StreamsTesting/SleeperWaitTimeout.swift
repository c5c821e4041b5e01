// The failure of a wait for sleepers that did not come: what the clock held when the wait gave
// up, and what to check next.
import Streams

/// Thrown by ``Streams/ManualClock/waitForSleepers(_:timeout:)`` when the sleepers did not come
/// within its real-time bound.
public struct SleeperWaitTimeout: Error, CustomStringConvertible {
  /// The sleeper count awaited.
  public let expected: Int
  /// The sleeper count when the wait gave up: tasks asleep and scheduled calls together.
  public let found: Int
  /// How many of `found` were scheduled calls rather than sleeping tasks.
  public let scheduledCalls: Int
  /// The clock's time then.
  public let now: ManualClock.Instant
  /// The real time waited.
  public let timeout: Duration

  /// What was awaited, what was found, and the usual causes.
  public var description: String {
    "Expected \(expected) sleeper(s) on the clock within \(timeout.millisecondsDescription) of real time, "
      + "but \(found) wait at \(now) (\(found - scheduledCalls) task(s) asleep, \(scheduledCalls) scheduled "
      + "call(s)). The code under test may sleep on another clock (ContinuousClock, Task.sleep), or not get "
      + "to its sleep at all; check which clock it was handed."
  }
}
