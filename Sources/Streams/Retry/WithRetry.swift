// Trying a failing async operation again after an exponential backoff slept on an injected
// clock, for errors worth retrying (a timeout, a 503), never for a cancellation.

/// Calls `operation` until it succeeds, `shouldRetry` rejects its error, or `policy.maxAttempts`
/// calls have been made, sleeping ``RetryPolicy/backoff(beforeRetry:)`` on `clock` between calls.
///
/// Useful around a fetch that fails now and then: a transient failure costs a short wait
/// instead of an error.
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let clock = runner.clock                 // ContinuousClock() in production
/// let attempts = Mutex(0)
/// let policy = RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(200))
/// let answer = try runner.run {
///   try await withRetry(policy, clock: clock, shouldRetry: { $0 is TimeoutError }) {
///     try await withTimeout(.seconds(2), clock: clock) {
///       let attempt = attempts.withLock { $0 += 1; return $0 }
///       try await clock.sleep(for: attempt == 1 ? .seconds(60) : .milliseconds(10))   // the 1st call hangs
///       return "answer of attempt \(attempt)"
///     }
///   }
/// }
/// // answer == "answer of attempt 2" at 2_210 ms: a 2 s timeout, a 200 ms backoff, a 10 ms call
/// ```
///
/// In a test, a ``VirtualTimeRunner`` shows each retry's exact instant:
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let task = runner.start {
///   try await withRetry(RetryPolicy(maxAttempts: 2, initialBackoff: .seconds(2)),
///                       clock: runner.clock) { try await flakyFetch() }
/// }
/// runner.advance(to: .milliseconds(1_999))   // one call so far
/// runner.advance(to: .milliseconds(2_000))   // the second call happens now
/// ```
///
/// With a `deadline`, a retry whose backoff would end at or after it is not made: the error of
/// the attempt just failed is thrown at once. An operation that could not start before the
/// deadline could not finish by it either, and its last failure says more than a timeout would.
///
/// - Returns: the first value `operation` returns.
/// - Throws:
///   - the last error `operation` threw, when `shouldRetry` rejected it or it came from the
///     last allowed attempt;
///   - a `CancellationError` thrown by `operation` at once: a cancellation is never retried;
///   - the last error `operation` threw, when the next backoff would reach `deadline`;
///   - `CancellationError` when the task is cancelled after a failed attempt that would have
///     been retried, or while it sleeps before the next attempt (it stops at once).
public func withRetry<T: Sendable, C: Clock>(
  _ policy: RetryPolicy,
  clock: C,
  until deadline: C.Instant? = nil,
  isolation: isolated (any Actor)? = #isolation,
  shouldRetry: (any Error) -> Bool = { _ in true },
  operation: () async throws -> T
) async throws -> T where C.Duration == Duration {
  var attempt = 1
  while true {
    do {
      return try await operation()
    } catch {
      if error is CancellationError || attempt >= policy.maxAttempts || !shouldRetry(error) { throw error }
      try Task.checkCancellation()
      let backoff = policy.backoff(beforeRetry: attempt)
      if let deadline, clock.now.advanced(by: backoff) >= deadline { throw error }
      try await clock.sleep(for: backoff)
      attempt += 1
    }
  }
}
