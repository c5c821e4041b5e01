// Real I/O inside a virtual-time run: a request to a real server takes real time, which virtual
// time must not jump over. Marking it lets the runner wait for it instead of moving the clock.

/// Runs `operation`, which completes outside virtual time (a network request), telling the
/// ``VirtualTimeRunner`` the task runs on, if any, to wait for it before moving time.
///
/// Useful when a replay talks to a real server: without it the runner, seeing nothing to run,
/// would move time to the next deadline (a search timeout) while the answer is on its way.
/// Outside a runner it just runs `operation`.
///
/// > Important: Do not wrap work that waits on the runner's own clock: the runner would wait
/// > for it while it waits for the runner to move time, and the run would stop.
public func withExternalWork<T: Sendable>(_ operation: () async throws -> T) async rethrows -> T {
  guard let executor = InheritedExecutor.preferred as? VirtualExecutor else { return try await operation() }
  executor.beginExternalWork()
  // Ended after the operation's answer has come back onto the runner, so the runner never sees
  // "no job and no outside work" while the answer is still on its way.
  defer { executor.endExternalWork() }
  return try await operation()
}
