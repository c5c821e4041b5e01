// The server's clock: instants that every worker shares (a budget's window, a search left open by
// a dead worker ended at the server's now) are read from Redis's `TIME`, never from the local
// clock, so workers whose clocks disagree still agree.
import Pipeline
import RESP
import Synchronization

enum ServerTime {
  /// What `TIME` answers, for an error message.
  static let expected = "[seconds, microseconds] in decimal"

  /// `TIME`'s reply (`[seconds, microseconds]`, each a bulk string of decimal digits, or an
  /// integer from a proxy that converts them) in milliseconds since 1970; nil for anything else,
  /// negative values, microseconds of a second or more, and seconds past the year 36812 (whose
  /// milliseconds would be no instant any worker can mean).
  static func milliseconds(_ reply: RESPValue) -> Int64? {
    guard let parts = reply.array, parts.count == 2, let seconds = parts[0].integer, let micros = parts[1].integer,
      (0..<(1 << 40)).contains(seconds), (0..<1_000_000).contains(micros)
    else { return nil }
    return seconds * 1_000 + micros / 1_000
  }
}

/// The system's calendar clock, corrected to the server's: every budget reservation reads the
/// server's `TIME` and keeps the difference, taken at the middle of the round trip.
final class ServerWallClock: WallClock {
  private let offset = Atomic<Int64>(0)
  private let local = SystemWallClock()

  var localMilliseconds: Int64 { local.millisecondsSinceEpoch }

  var millisecondsSinceEpoch: Int64 { local.millisecondsSinceEpoch + offset.load(ordering: .relaxed) }

  func correct(serverTime: Int64, sentAt: Int64, receivedAt: Int64) {
    offset.store(serverTime - (sentAt + receivedAt) / 2, ordering: .relaxed)
  }

  func sleep(for duration: Duration) async throws {
    try await local.sleep(for: duration)
  }
}
