// Real I/O inside a virtual-time run: a request to a real server takes real time, which virtual
// time must not jump over. Marking it lets the runner wait for it instead of moving the clock.

/// Runs `operation`, which completes outside virtual time (a network request), telling the
/// ``VirtualTimeRunner`` the task runs on, if any, to wait for it before moving time.
///
/// Useful when a replay talks to a real server: without it the runner, seeing nothing to run,
/// would move time to the next deadline (a search timeout) while the answer is on its way.
/// Outside a runner it just runs `operation`.
///
/// While `operation` is asleep on a ``ManualClock`` (a stub with simulated latency wrapped by
/// mistake), the runner does not wait for it: only the runner can move that clock, so waiting
/// would stop the run. The sleep then is virtual time like any other.
///
/// The runner waits for outside work at most its `watchdog` (60 s by default) of real time;
/// then the driving call stops and reports a ``VirtualTimeStall``.
public func withExternalWork<T: Sendable>(_ operation: () async throws -> T) async rethrows -> T {
  guard let executor = InheritedExecutor.preferred as? VirtualExecutor else { return try await operation() }
  executor.beginExternalWork()
  // Ended after the operation's answer has come back onto the runner, so the runner never sees
  // "no job and no outside work" while the answer is still on its way.
  defer { executor.endExternalWork() }
  return try await ExternalWorkScope.$executor.withValue(executor) { try await operation() }
}

/// The runner whose outside work the current task is doing, read by `ManualClock.sleep`.
enum ExternalWorkScope {
  @TaskLocal static var executor: VirtualExecutor?
}
