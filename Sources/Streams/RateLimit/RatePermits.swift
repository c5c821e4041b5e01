// The seam between code that sends requests and whatever decides when it may: RateLimiter in
// memory today; a budget shared between processes can take its place without the callers changing.

/// Hands out permission to send one request, making callers wait when the budget is spent.
///
/// Useful to keep a fetcher under a service's quota while letting the quota's keeper change:
/// the caller only asks for a permit and hears how long it may wait.
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let permits: any RatePermits<ManualClock.Instant> =
///   RateLimiter(permits: 2, per: .seconds(1), clock: runner.clock)
/// let waits = Mutex<[ManualClock.Instant]>([])
/// try runner.run {
///   for _ in 0..<3 { try await permits.acquire { at in waits.withLock { $0.append(at) } } }
/// }
/// // waits == [.milliseconds(1_000)]: only the third caller waited, and heard when at once
/// ```
///
/// - **Element:** ``acquire(onWait:)`` returns once the caller holds a permit.
/// - **Waiting:** when the caller must wait, `onWait` is called once, before it suspends, with
///   the instant its permit is expected.
/// - **Cancellation:** a caller cancelled before or while waiting throws `CancellationError`
///   and holds no permit.
package protocol RatePermits<Instant>: Sendable {
  /// The instants of the clock the permits are measured on.
  associatedtype Instant: InstantProtocol

  /// Waits until the caller may send one request; `onWait` hears when, if it has to wait.
  func acquire(onWait: (Instant) -> Void) async throws
}
