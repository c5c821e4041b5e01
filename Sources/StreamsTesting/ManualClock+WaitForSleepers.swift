// Waiting, without polling, until code under test has gone to sleep on a ManualClock: the step a
// test needs before it advances the clock when the code runs on ordinary tasks.
import Streams
import Synchronization

extension ManualClock {
  /// Suspends until at least `count` sleepers wait on this clock: tasks asleep on it and calls
  /// scheduled on it (an operator's timer, a `withTimeout` limit), as
  /// `sleeperCount` counts them.
  ///
  /// Useful when the code under test runs on ordinary tasks rather than a
  /// `VirtualTimeRunner`: a task's sleep (or a debounce's timer) registers only when the task
  /// gets to it, so advancing before then moves time under code that has not started waiting.
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
  ///   time, and after the task threads have since had a turn at what was queued for them (a
  ///   bound, so that a test waiting for a sleep that never comes fails instead of hanging, and
  ///   code that could not run while other work held every task thread is not blamed);
  ///   `CancellationError` when the task is cancelled.
  public func waitForSleepers(_ count: Int, timeout: Duration = .seconds(10)) async throws {
    let id = reserveSleeperWaitID()
    let timedOut = Atomic(false)
    let limit = RealTimeLimit(after: timeout, priority: Task.currentPriority) { [self] in
      timedOut.store(true, ordering: .relaxed)
      abandonSleeperWait(id)
    }
    await withTaskCancellationHandler {
      await awaitSleepers(atLeast: count, id: id)
    } onCancel: {
      abandonSleeperWait(id)
    }
    limit.cancel()
    try Task.checkCancellation()
    let counts = sleeperCounts
    if timedOut.load(ordering: .relaxed), counts.sleepers < count {
      throw SleeperWaitTimeout(
        expected: count, found: counts.sleepers, scheduledCalls: counts.scheduledCalls, now: now, timeout: timeout)
    }
  }
}
