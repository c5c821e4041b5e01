// A time limit on any async operation, measured on an injected clock: the operation races a
// timer in a task group and the loser is cancelled, so a fast answer never waits for the timer.

/// Runs `operation`, and cancels it if it has not finished after `duration` on `clock`.
///
/// Useful to bound a fetch: a source that hangs costs at most `duration`.
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let clock = runner.clock                 // ContinuousClock() in production
/// let outcome = try runner.run {
///   do {
///     return try await withTimeout(.seconds(2), clock: clock) {
///       try await clock.sleep(for: .seconds(60)); return "answer"   // a source that hangs
///     }
///   } catch is TimeoutError {
///     return "timed out"
///   }
/// }
/// // outcome == "timed out", runner.now == .milliseconds(2_000): the hang cost exactly 2 s
/// ```
///
/// In a test, a ``VirtualTimeRunner`` shows that a fast answer does not wait for the timer:
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let clock = runner.clock
/// let value = try runner.run {
///   try await withTimeout(.seconds(10), clock: clock) {
///     try await clock.sleep(for: .milliseconds(10)); return 42
///   }
/// }
/// // value == 42, runner.now == .milliseconds(10), clock.sleeperCount == 0
/// ```
///
/// The operation and a timer run as two child tasks; whichever finishes first decides, and the
/// other is cancelled. Like every task group, this returns only after both children have ended:
/// an operation that ignores cancellation delays the ``TimeoutError`` until it returns.
///
/// - Returns: what `operation` returned, as soon as it returned (the timer is cancelled, so no
///   sleeper is left on `clock`).
/// - Throws:
///   - what `operation` threw, when it threw before the time ran out and the caller was not
///     cancelled;
///   - ``TimeoutError`` when `duration` elapsed first (at exactly `duration` after the call, on
///     `clock`): the operation is cancelled, and whatever it then returns or throws (typically
///     `CancellationError`) is replaced by the `TimeoutError`. A `duration` of zero or less
///     throws it at once without starting the operation;
///   - `CancellationError` when the calling task is cancelled first: the operation is cancelled
///     too, and the timer never turns the caller's cancellation into a `TimeoutError`.
public func withTimeout<T: Sendable, C: Clock>(
  _ duration: Duration,
  clock: C,
  operation: @escaping @Sendable () async throws -> T
) async throws -> T where C.Duration == Duration {
  guard duration > .zero else { throw TimeoutError(duration: duration) }
  return try await withThrowingTaskGroup(of: RaceOutcome<T>.self) { group in
    group.addTask { .finished(try await operation()) }
    group.addTask {
      do {
        try await clock.sleep(for: duration)
        return .timedOut
      } catch {
        // Only the caller's cancellation cancels the timer before a winner is known.
        return .timerCancelled
      }
    }
    let first: RaceOutcome<T>?
    do {
      first = try await group.next()
    } catch {
      // The operation threw first: stop the timer and pass the error on, unless the caller was
      // cancelled, which is what the operation's error then most likely reports.
      group.cancelAll()
      if Task.isCancelled { throw CancellationError() }
      throw error
    }
    // Cancel the loser. Leaving the group waits for it; its outcome is dropped.
    group.cancelAll()
    switch first {
    case .finished(let value):
      return value
    case .timedOut:
      throw TimeoutError(duration: duration)
    case .timerCancelled, nil:
      throw CancellationError()
    }
  }
}

/// What the first child of the race to finish reports.
private enum RaceOutcome<T: Sendable>: Sendable {
  case finished(T)
  case timedOut
  case timerCancelled
}
