// The rate rule, stated once for every keeper of a request budget: the limiter in memory
// (RateLimiter) and the budgets shared through a store (the pipeline's SQLite and Redis stores).
// A keeper only records each request's grant and end and asks this rule whether one more may go.

/// At most `permits` requests per `window`, counted where the server counts them.
///
/// ## The rule
/// A request holds a permit from the instant it is granted until exactly `window` after it ends.
/// One more is granted at `now` only if fewer than `permits` requests hold one at `now`. A permit
/// whose request ends as it is granted (``RateLimiter/acquire()``) is the classic sliding window:
/// in use until exactly `window` after its grant.
///
/// Why from the end: the server counts a request when it arrives, which is after its permit (a
/// connection to open, bytes to travel) and, for an answered request, before its answer comes
/// back. So between the permit and the answer lies the server's instant, whatever the network
/// did; and any `permits + 1` requests the server saw within one window would all have held a
/// permit at the last of those arrivals, which the rule refused. Measured where it is counted,
/// the budget holds exactly, with no allowance for the network; it costs each request its round
/// trip of extra spacing.
///
/// A request that ends unanswered (cancelled, timed out, its connection lost) may still have
/// bytes on their way to the server: it counts as ending ``unansweredMargin`` later.
///
/// A request still in flight holds its permit at least until `window` after now (its end is
/// unknown, and at least now). With a `lease`, it does so until `lease` after its grant at most,
/// and counts as having ended then: that frees the permits of a process killed in the middle of
/// a request, which a store shared between processes needs.
package struct RateRule<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  /// Requests allowed at once within a window (at least 1).
  package let permits: Int
  /// The window; zero or less limits nothing.
  package let window: Duration
  /// How long a request in flight holds its permit at most; nil for as long as it is in flight.
  package let lease: Duration?

  /// How much later than its end an unanswered request counts as over: 1 s.
  package static var unansweredMargin: Duration { .seconds(1) }

  /// The rule for `permits` requests per `window`, a request in flight holding its permit at
  /// most `lease` after its grant (nil: until it ends).
  package init(permits: Int, window: Duration, lease: Duration? = nil) {
    self.permits = max(1, permits)
    self.window = window
    self.lease = lease
  }

  /// What a request asking at `now` finds.
  package enum Decision: Sendable, Equatable {
    /// A permit is free: record the request and send it.
    case grant
    /// Every permit is held: ask again at this instant, when the first of them frees. For a
    /// request in flight it is a lower bound (its end is not yet known).
    case fullUntil(Instant)
  }

  /// When a request granted at `granted` (and over at `ended`, once known) stops holding its
  /// permit, as known at `now`.
  package func releaseInstant(granted: Instant, ended: Instant?, now: Instant) -> Instant {
    let leaseEnd = lease.map { granted.advanced(by: $0) }
    if let ended {
      guard let leaseEnd, leaseEnd < ended else { return ended.advanced(by: window) }
      return leaseEnd.advanced(by: window)
    }
    guard let leaseEnd, leaseEnd < now else { return now.advanced(by: window) }
    return leaseEnd.advanced(by: window)
  }

  /// Whether one more request may be granted at `now`, given when each recorded request
  /// releases its permit (``releaseInstant(granted:ended:now:)``).
  package func decide(releases: [Instant], now: Instant) -> Decision {
    let holding = releases.filter { $0 > now }.sorted()
    guard holding.count >= permits else { return .grant }
    // The release after which fewer than `permits` still hold.
    return .fullUntil(holding[holding.count - permits])
  }

  /// When the caller at `position` in a line of waiters (the first is 0) gets its permit if
  /// nobody leaves the line and each request ends as it is granted: each waiter takes the permit
  /// `permits` places before it, a window later. Never before `now`.
  package func expectedGrant(forPosition position: Int, releases: [Instant], now: Instant) -> Instant {
    let latest = releases.sorted().suffix(permits)
    guard latest.count == permits, window > .zero else { return now }
    let freed = latest[latest.startIndex + position % permits]
    return max(freed.advanced(by: window * (position / permits)), now)
  }

  /// Requests granted before this instant no longer hold a permit at `now` or later, so a keeper
  /// may forget them; nil without a lease (a request in flight holds until it ends).
  package func forgettable(before now: Instant) -> Instant? {
    lease.map { now.advanced(by: .zero - $0 - window) }
  }
}
