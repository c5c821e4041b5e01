// The calendar time the disk cache stamps its rows with. Another process, started tomorrow, must
// read the same stamps, so a monotonic clock will not do; it is injected like every other clock.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Calendar time in milliseconds since 1970 UTC, and a way to wait in it.
///
/// Useful where instants are shared between processes and runs: when an answer was fetched, when
/// a request was sent. A test injects its own to ask "is it fresh at 59,999 ms, and at 60,000?".
public protocol WallClock: Sendable {
  /// Milliseconds since 1970-01-01 00:00 UTC.
  var millisecondsSinceEpoch: Int64 { get }

  /// Waits `duration` in this clock's time.
  ///
  /// - Throws: `CancellationError` when the task is cancelled while waiting.
  func sleep(for duration: Duration) async throws
}

/// The system's calendar clock (`CLOCK_REALTIME`); it waits on `ContinuousClock`.
///
/// - Caveat: calendar time can jump (NTP, a user setting the date). A jump backwards makes
///   answers look younger and requests look more recent, never the reverse: the cache and the
///   rate budget err on the side of asking less.
public struct SystemWallClock: WallClock {
  /// The system clock.
  public init() {}

  /// Now, read with clock_gettime(CLOCK_REALTIME).
  public var millisecondsSinceEpoch: Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
  }

  /// Sleeps on `ContinuousClock`.
  public func sleep(for duration: Duration) async throws {
    try await ContinuousClock().sleep(for: duration)
  }
}
