// The shared rate budget's rule for every store (SQLite, Redis): ``RateRule``, the one rule the
// process's own limiter follows too, in the stores' units (milliseconds of calendar time). A store
// only keeps the entries and runs this rule atomically.
import Streams
/// One request recorded in a shared budget.
public struct BudgetEntry: Sendable, Hashable {
  /// Unique among the budget's entries: the process that recorded it, and a random number.
  public var id: String
  /// When the permit was granted, in milliseconds since 1970 UTC: the request cannot reach the
  /// server before.
  public var grantedAt: Int64
  /// When the request counts as over, in milliseconds since 1970 UTC: its answer's arrival, or
  /// for a request that ended unanswered that instant plus a second (bytes may still be on
  /// their way); nil while it is in flight.
  public var endedAt: Int64?

  /// An entry as a store read it back.
  public init(id: String, grantedAt: Int64, endedAt: Int64? = nil) {
    self.id = id
    self.grantedAt = grantedAt
    self.endedAt = endedAt
  }
}

/// ``RateRule`` as the stores apply it: at most `permits` requests per `window`, a request holding
/// its permit from its grant until exactly `window` after its end, counted where the server counts
/// them. Instants are milliseconds of calendar time (``WallClock``), shared by every process.
///
/// An entry still in flight holds its permit until ``lease`` after it was granted at most; past
/// that it counts as having ended then. That frees the permits of a process killed in the middle of
/// a request.
struct BudgetRule: Sendable {
  /// The rule itself.
  let rule: RateRule<WallInstant>

  /// How much later than its end an unanswered request counts as over, in milliseconds: 1 s.
  static let unansweredMargin: Int64 = RateRule<WallInstant>.unansweredMargin.wholeMilliseconds
  /// How long an entry in flight holds its permit at most, in milliseconds: 60 s, longer than any
  /// request's default timeout lets it run unanswered.
  static let lease: Int64 = 60_000

  init(_ limit: RateLimit) {
    rule = RateRule(permits: limit.permits, window: limit.window, lease: .milliseconds(Self.lease))
  }

  /// What a reservation at `now` finds.
  enum Decision: Sendable, Equatable {
    /// A permit is free: record the request and send it.
    case grant
    /// Every permit is held: try again in this many milliseconds (at least 1). For an entry in
    /// flight it is a lower bound (its end is not yet known).
    case fullFor(Int64)
  }

  /// Whether one more request may be granted at `now`, given the budget's `entries`.
  func decide(_ entries: [BudgetEntry], now: Int64) -> Decision {
    let releases = entries.map { WallInstant(releaseInstant(of: $0, now: now)) }
    switch rule.decide(releases: releases, now: WallInstant(now)) {
    case .grant: return .grant
    case .fullUntil(let instant): return .fullFor(max(1, instant.milliseconds - now))
    }
  }

  /// When `entry` stops holding a permit, as known at `now`.
  func releaseInstant(of entry: BudgetEntry, now: Int64) -> Int64 {
    rule.releaseInstant(
      granted: WallInstant(entry.grantedAt), ended: entry.endedAt.map(WallInstant.init), now: WallInstant(now)
    ).milliseconds
  }

  /// Entries granted before this instant can no longer hold a permit at `now` or later: a store
  /// may forget them.
  func forgettable(before now: Int64) -> Int64 {
    guard let cut = rule.forgettable(before: WallInstant(now)) else { return Int64.min }
    return cut.milliseconds - 1
  }
}

/// An instant of calendar time, in milliseconds since 1970 UTC, as the stores record it.
struct WallInstant: InstantProtocol {
  /// Milliseconds since 1970 UTC.
  let milliseconds: Int64

  init(_ milliseconds: Int64) {
    self.milliseconds = milliseconds
  }

  func advanced(by duration: Duration) -> WallInstant {
    WallInstant(milliseconds + duration.wholeMilliseconds)
  }

  func duration(to other: WallInstant) -> Duration {
    .milliseconds(other.milliseconds - milliseconds)
  }

  static func < (lhs: WallInstant, rhs: WallInstant) -> Bool {
    lhs.milliseconds < rhs.milliseconds
  }
}
