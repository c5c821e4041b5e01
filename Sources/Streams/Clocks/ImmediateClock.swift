// A clock on which every wait is already over: for code whose waits do not matter to a test.
import Synchronization

/// A clock whose sleeps return at once, moving `now` to their deadline.
///
/// Useful where a test exercises code that waits (a retry backoff, a simulated latency) but
/// what is checked does not depend on the waits: the test runs at full speed and `now` still
/// tells how long the code would have waited.
///
/// ```swift
/// let clock = ImmediateClock()
/// try await clock.sleep(for: .seconds(2))
/// // clock.now == .zero.advanced(by: .seconds(2))
/// ```
///
/// A cancelled task's sleep throws `CancellationError`, as every clock's does.
public final class ImmediateClock: Clock, Sendable {
  public typealias Instant = ManualClock.Instant

  private let current: Mutex<Instant>

  /// Creates a clock that reads `now`.
  public init(now: Instant = .zero) { current = Mutex(now) }

  /// The clock's current time: the latest deadline slept until.
  public var now: Instant { current.withLock { $0 } }

  /// Zero: the clock can represent any instant.
  public var minimumResolution: Duration { .zero }

  /// Returns at once, moving `now` to `deadline` if it is later; throws `CancellationError`
  /// when the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { now in
      if deadline > now { now = deadline }
    }
  }
}
