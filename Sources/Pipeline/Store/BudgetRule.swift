// The shared rate budget's rule, stated once for every store (SQLite, Redis): which recorded
// requests still hold a permit at an instant, and so whether one more may be sent now or how long
// until one frees. A store only keeps the entries and runs this rule atomically.

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

/// At most `permits` requests per `window`, counted where the server counts them.
///
/// ## The rule
/// A request holds a permit from the instant it is granted until exactly `window` after it ends.
/// One more is granted at `now` only if fewer than `permits` entries hold one at `now`.
///
/// Why from the end: the server counts a request when it arrives, which is after its permit (a
/// connection to open, bytes to travel) and, for an answered request, before its answer comes
/// back. So between the permit and the answer lies the server's instant, whatever the network
/// did; and any `permits + 1` requests the server saw within one window would all have held a
/// permit at the last of those arrivals, which the rule refused. Measured where it is counted,
/// the budget holds exactly, with no allowance for the network; it costs each request its
/// round trip of extra spacing.
///
/// A request that ends unanswered (cancelled, timed out, its connection lost) may still have
/// bytes on their way to the server: it counts as ending ``unansweredMargin`` later.
///
/// An entry still in flight holds its permit (its end is unknown, and at least now) until
/// ``lease`` after it was granted; past that it counts as having ended then. That frees the
/// permits of a process killed in the middle of a request.
///
/// Instants are milliseconds of calendar time (``WallClock``), shared by every process.
struct BudgetRule: Sendable, Hashable {
  /// Requests allowed at once within a window.
  let permits: Int
  /// The window, in milliseconds.
  let window: Int64

  /// How much later than its end an unanswered request counts as over: 1 s.
  static let unansweredMargin: Int64 = 1_000
  /// How long an entry in flight holds its permit at most: 60 s, longer than any request's
  /// timeout lets it run unanswered.
  static let lease: Int64 = 60_000

  init(_ limit: RateLimit) {
    permits = max(1, limit.permits)
    window = max(1, limit.window.wholeMilliseconds)
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
    let frees = entries.map { releaseInstant(of: $0, now: now) }.filter { $0 > now }.sorted()
    guard frees.count >= permits else { return .grant }
    // The permit after which fewer than `permits` still hold.
    return .fullFor(max(1, frees[frees.count - permits] - now))
  }

  /// When `entry` stops holding a permit, as known at `now`: `window` after its end, or at the
  /// earliest `window` after now while it is in flight (also one granted after `now`, by a
  /// process whose clock runs ahead).
  func releaseInstant(of entry: BudgetEntry, now: Int64) -> Int64 {
    let leaseEnd = entry.grantedAt + Self.lease
    if let endedAt = entry.endedAt { return min(endedAt, leaseEnd) + window }
    return (now < leaseEnd ? now : leaseEnd) + window
  }

  /// Entries granted before this instant can no longer hold a permit at `now` or later: a store
  /// may forget them.
  func forgettable(before now: Int64) -> Int64 {
    now - Self.lease - window - 1
  }
}
