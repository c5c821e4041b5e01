// Waiting, without polling, until code under test has gone to sleep on a ManualClock: the step a
// test needs before it advances the clock when the code runs on ordinary tasks.
import Dispatch
import Streams
import Synchronization

extension ManualClock {
  /// Suspends until at least `count` tasks are asleep on this clock.
  ///
  /// Useful when the code under test runs on ordinary tasks rather than a
  /// `VirtualTimeRunner`: a task's sleep registers only when the task gets to it, so advancing
  /// before then moves time under a task that has not started waiting.
  ///
  /// ```swift
  /// let clock = ManualClock()
  /// let task = Task { try await clock.sleep(for: .milliseconds(500)) }
  /// try await clock.waitForSleepers(1)
  /// clock.advance(by: .milliseconds(500))
  /// try await task.value
  /// ```
  ///
  /// The wait is woken by the clock itself when a sleeper registers; it never polls.
  ///
  /// - Throws: ``SleeperWaitTimeout`` when fewer than `count` sleep after `timeout` of real
  ///   time (a bound, so that a test waiting for a sleep that never comes fails instead of
  ///   hanging); `CancellationError` when the task is cancelled.
  public func waitForSleepers(_ count: Int, timeout: Duration = .seconds(10)) async throws {
    let id = reserveSleeperWaitID()
    let timedOut = Atomic(false)
    let timer = DispatchWorkItem { [self] in
      timedOut.store(true, ordering: .relaxed)
      abandonSleeperWait(id)
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(timeout.wholeNanoseconds), execute: timer)
    await withTaskCancellationHandler {
      await awaitSleepers(atLeast: count, id: id)
    } onCancel: {
      abandonSleeperWait(id)
    }
    timer.cancel()
    try Task.checkCancellation()
    if timedOut.load(ordering: .relaxed), sleeperCount < count {
      throw SleeperWaitTimeout(expected: count, found: sleeperCount, now: now, timeout: timeout)
    }
  }
}

/// Thrown by ``Streams/ManualClock/waitForSleepers(_:timeout:)`` when the sleepers did not come.
public struct SleeperWaitTimeout: Error, CustomStringConvertible {
  /// The sleeper count awaited.
  public let expected: Int
  /// The sleeper count when the wait gave up.
  public let found: Int
  /// The clock's time then.
  public let now: ManualClock.Instant
  /// The real time waited.
  public let timeout: Duration

  public var description: String {
    "Expected \(expected) sleeper(s) on the clock within \(timeout), but \(found) are asleep at \(now). "
      + "The code under test may sleep on another clock (ContinuousClock, Task.sleep), or not get "
      + "to its sleep at all; check which clock it was handed."
  }
}
