// Awaiting a task's value on a bare ManualClock with a bound: nothing moves such a clock but the
// test, so a test that forgot to advance it would otherwise wait for ever, silently.
import Streams
import Synchronization

extension ManualClock {
  /// The value of `task`, awaited for at most `timeout` of real time.
  ///
  /// Useful when the code under test runs on ordinary tasks and sleeps on this clock: nothing
  /// but the test moves a bare `ManualClock`, so `await task.value` on a task still asleep waits
  /// for ever, with no word. This wait fails instead, naming what still waits on the clock.
  /// (A `VirtualTimeRunner` needs none of this: its `finish(_:)` moves time itself and
  /// every one of its driving calls is bounded by its watchdog.)
  ///
  /// ```swift
  /// let clock = ManualClock()
  /// let task = Task {
  ///   try? await clock.sleep(for: .milliseconds(500))
  ///   return clock.now.milliseconds
  /// }
  /// try await clock.waitForSleepers(1)
  /// clock.advance(by: .milliseconds(500))
  /// let woke = try await clock.value(of: task)  // 500; without the advance, TaskValueTimeout
  /// ```
  ///
  /// - **Element:** returns the task's value as soon as it has one.
  /// - **Failure:** ``TaskValueTimeout`` when the task has not finished after `timeout` (10 s by
  ///   default) of real time, and after the task threads have since had a turn at what was queued
  ///   for them (so that a task that could not even start, while other work held every task
  ///   thread, is not taken for one that never ends); the task is then cancelled, since nothing
  ///   would end it.
  /// - **Cancellation:** cancelling the waiting task throws `CancellationError` at once and
  ///   leaves `task` running.
  public func value<Success: Sendable>(
    of task: Task<Success, Never>, timeout: Duration = .seconds(10)
  ) async throws -> Success {
    let result = try await awaitResult(timeout: timeout, cancel: { task.cancel() }) { await task.value }
    return result
  }

  /// The value of a throwing `task`, awaited for at most `timeout` of real time; as the
  /// non-throwing form, and throws what the task threw.
  public func value<Success: Sendable>(
    of task: Task<Success, any Error>, timeout: Duration = .seconds(10)
  ) async throws -> Success {
    let result = try await awaitResult(timeout: timeout, cancel: { task.cancel() }) { await task.result }
    return try result.get()
  }

  /// Races `outcome` against a real-time timer and the caller's cancellation; the first wins.
  private func awaitResult<Value: Sendable>(
    timeout: Duration, cancel: @escaping @Sendable () -> Void, _ outcome: @escaping @Sendable () async -> Value
  ) async throws -> Value {
    let race = Race<Value>()
    let waiter = Task { race.settle(.finished(await outcome())) }
    let limit = RealTimeLimit(after: timeout, priority: Task.currentPriority) { race.settle(.timedOut) }
    let ending = await withTaskCancellationHandler {
      await withUnsafeContinuation { continuation in
        race.await(continuation)
      }
    } onCancel: {
      race.settle(.cancelled)
    }
    limit.cancel()
    switch ending {
    case .finished(let value):
      return value
    case .cancelled:
      waiter.cancel()
      throw CancellationError()
    case .timedOut:
      // What waited when the wait gave up, read before the cancellation changes it.
      let counts = sleeperCounts
      let timedOut = TaskValueTimeout(
        timeout: timeout, now: now, sleepers: counts.sleepers, scheduledCalls: counts.scheduledCalls,
        nextDeadline: nextDeadline)
      cancel()
      throw timedOut
    }
  }
}

/// How a bounded wait ended; the first of the three to happen is kept.
private enum Ending<Value: Sendable>: Sendable {
  case finished(Value)
  case timedOut
  case cancelled
}

/// One continuation resumed once, by whichever ending comes first; an ending that comes before
/// the continuation is kept until it arrives.
private final class Race<Value: Sendable>: Sendable {
  private let state = Mutex<(ending: Ending<Value>?, continuation: UnsafeContinuation<Ending<Value>, Never>?)>(
    (nil, nil))

  func await(_ continuation: UnsafeContinuation<Ending<Value>, Never>) {
    let ending = state.withLock { state -> Ending<Value>? in
      guard let ending = state.ending else {
        state.continuation = continuation
        return nil
      }
      return ending
    }
    if let ending { continuation.resume(returning: ending) }
  }

  func settle(_ ending: Ending<Value>) {
    let continuation = state.withLock { state -> UnsafeContinuation<Ending<Value>, Never>? in
      guard state.ending == nil else { return nil }
      state.ending = ending
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume(returning: ending)
  }
}
