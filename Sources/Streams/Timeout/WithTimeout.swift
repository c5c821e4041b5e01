// A time limit on any async operation, measured on an injected clock: the operation races a
// timer and the loser is cancelled, so a fast answer never waits for the timer.
import Synchronization

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
/// The operation runs in a task of its own and races a ``ClockWake`` at the deadline (on a
/// ``ManualClock`` a call, not a timer task); whichever comes first decides, and the other is
/// cancelled. This returns only after the operation has ended: an operation that ignores
/// cancellation delays the ``TimeoutError`` until it returns.
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
  // The operation runs in a task of its own and the timer is a ClockWake that cancels it: on a
  // ManualClock a call at the deadline, with no timer task. The race and its rules are those of
  // a task group racing a sleeping timer, for a third of the executor jobs.
  let operationTask = Task(inheritingExecutor: { try await operation() })
  let timedOut = Atomic(false)
  let wake = ClockWake.schedule(on: clock, at: clock.now.advanced(by: duration)) {
    timedOut.store(true, ordering: .releasing)
    operationTask.cancel()
  }
  let outcome = await withTaskCancellationHandler {
    await operationTask.result
  } onCancel: {
    operationTask.cancel()
  }
  wake.cancel()
  // The caller's cancellation wins over the timer and over the operation's own error.
  return try timeoutVerdict(
    outcome, ranOut: timedOut.load(ordering: .acquiring), callerCancelled: Task.isCancelled, duration: duration)
}

/// ``withTimeout(_:clock:operation:)`` for an operation that is all its task does (a cache
/// load, say): the operation runs in the calling task, and at the deadline that task is
/// cancelled through `load`, its handle, instead of a task of the operation's own. A task and a
/// resumption fewer per call.
///
/// - Returns: what `operation` returned before the deadline.
/// - Throws: the same as ``withTimeout(_:clock:operation:)``, with one difference that makes it
///   fit only a task that ends with the operation: the timer cancels the calling task itself,
///   which stays cancelled. Once the timer has fired, ``TimeoutError`` is thrown even if the
///   task was also cancelled otherwise; a cancellation before it throws `CancellationError`.
package func withTimeout<T: Sendable, C: Clock>(
  _ duration: Duration,
  clock: C,
  cancellingItsTaskThrough load: CacheLoad,
  operation: () async throws -> T
) async throws -> T where C.Duration == Duration {
  guard duration > .zero else { throw TimeoutError(duration: duration) }
  let timedOut = Atomic(false)
  let wake = ClockWake.schedule(on: clock, at: clock.now.advanced(by: duration)) {
    timedOut.store(true, ordering: .releasing)
    load.cancel()
  }
  let outcome: Result<T, any Error>
  do {
    outcome = .success(try await operation())
  } catch {
    outcome = .failure(error)
  }
  wake.cancel()
  let ranOut = timedOut.load(ordering: .acquiring)
  return try timeoutVerdict(outcome, ranOut: ranOut, callerCancelled: !ranOut && Task.isCancelled, duration: duration)
}

/// The one statement of how a timed operation ends: its value if it returned in time; else the
/// caller's cancellation, else the timeout, else the operation's own error.
@usableFromInline func timeoutVerdict<T>(
  _ outcome: Result<T, any Error>, ranOut: Bool, callerCancelled: Bool, duration: Duration
) throws -> T {
  if case .success(let value) = outcome, !ranOut { return value }
  if callerCancelled { throw CancellationError() }
  if ranOut { throw TimeoutError(duration: duration) }
  return try outcome.get()
}
