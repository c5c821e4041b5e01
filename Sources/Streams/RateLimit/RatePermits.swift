// The seam between code that sends requests and whatever decides when it may: RateLimiter in
// memory today; a budget shared between processes can take its place without the callers changing.
import Synchronization

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

  /// Like ``acquire(onWait:)``, the permit held until its request ends (``HeldPermit``).
  func acquireUntilFinished(onWait: (Instant) -> Void) async throws -> HeldPermit
}

/// A permit held until its request ends; a window after that end it frees (``RateRule``).
///
/// Finish it once the request is over, however it ended. One dropped unfinished counts as a
/// request that ended unanswered then.
package final class HeldPermit: Sendable {
  private let end: @Sendable (_ mayStillArrive: Bool) -> Void
  private let finished = Atomic(false)

  /// A permit whose request's end `end` records.
  package init(end: @escaping @Sendable (_ mayStillArrive: Bool) -> Void) {
    self.end = end
  }

  /// Records the request as over now, the first time it is called. `mayStillArrive`: it ended
  /// without an answer (cancelled, timed out, its connection lost), so its bytes may still reach
  /// the server, and it counts as ending ``RateRule/unansweredMargin`` later.
  package func finish(mayStillArrive: Bool) {
    guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
    end(mayStillArrive)
  }

  deinit { finish(mayStillArrive: true) }
}
