// The one rate rule (RateRule) at its exact boundaries, and RateLimiter following it for a permit
// held until its request ends: it frees exactly a window after that end, an unanswered one a
// margin later, one dropped unfinished as an unanswered one.
import Streams
import StreamsTesting
import Testing

@Suite struct RateRuleTests {
  typealias Instant = ManualClock.Instant
  private let rule = RateRule<Instant>(permits: 2, window: .seconds(5))

  private func releases(_ requests: [(granted: Int64, ended: Int64?)], now: Int64) -> [Instant] {
    requests.map {
      rule.releaseInstant(
        granted: .milliseconds($0.granted), ended: $0.ended.map { .milliseconds($0) }, now: .milliseconds(now))
    }
  }

  private func decide(_ requests: [(granted: Int64, ended: Int64?)], at now: Int64) -> RateRule<Instant>.Decision {
    rule.decide(releases: releases(requests, now: now), now: .milliseconds(now))
  }

  @Test func aPermitFreesExactlyOneWindowAfterItsRequestEnds() {
    let requests: [(granted: Int64, ended: Int64?)] = [(1_000, 1_300), (1_000, 1_100)]
    // The second frees at 1,100 + 5,000: one permit is free from then on, however late the first ended.
    #expect(decide(requests, at: 1_000) == .fullUntil(.milliseconds(6_100)))
    #expect(decide(requests, at: 6_099) == .fullUntil(.milliseconds(6_100)))
    #expect(decide(requests, at: 6_100) == .grant)
  }

  @Test func aRequestInFlightHoldsItsPermitAtLeastAWindowFromNow() {
    let requests: [(granted: Int64, ended: Int64?)] = [(1_000, nil), (2_000, nil)]
    #expect(decide(requests, at: 30_000) == .fullUntil(.milliseconds(35_000)))
  }

  @Test func withALeaseARequestInFlightCountsAsEndedWhenItRunsOut() {
    let leased = RateRule<Instant>(permits: 1, window: .seconds(5), lease: .seconds(60))
    let inFlight = leased.releaseInstant(granted: .milliseconds(0), ended: nil, now: .milliseconds(90_000))
    #expect(inFlight == .milliseconds(65_000))
    let lateEnd = leased.releaseInstant(
      granted: .milliseconds(0), ended: .milliseconds(70_000), now: .milliseconds(90_000))
    #expect(lateEnd == .milliseconds(65_000), "an end recorded after the lease is read as the lease's end")
    #expect(leased.forgettable(before: .milliseconds(90_000)) == .milliseconds(25_000))
    #expect(rule.forgettable(before: .milliseconds(90_000)) == nil, "without a lease, nothing is forgotten in flight")
  }

  @Test func requestsThatEndAtTheirGrantAreTheClassicSlidingWindow() {
    // Granted at 0 and 400 ms, each over at once: free at 5,000 and 5,400; the waiters behind
    // take them, and the third one a window after the first waiter.
    let requests: [(granted: Int64, ended: Int64?)] = [(0, 0), (400, 400)]
    let now = releases(requests, now: 500)
    let expected = (0..<3).map { rule.expectedGrant(forPosition: $0, releases: now, now: .milliseconds(500)) }
    #expect(expected == [.milliseconds(5_000), .milliseconds(5_400), .milliseconds(10_000)])
  }

  @Test func aHeldPermitFreesAWindowAfterItIsFinished() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let limiter = RateLimiter(permits: 1, per: .seconds(1), clock: clock)
    let permit = try runner.run { try await limiter.acquireUntilFinished { _ in } }
    let next = runner.start {
      try await limiter.acquire()
      return clock.now.milliseconds
    }
    runner.advance(to: .milliseconds(500))
    permit.finish(mayStillArrive: false)
    // Still in flight at 1,000 ms, so not free then: free a window after its end at 500 ms.
    runner.advance(to: .milliseconds(1_499))
    #expect(!next.isFinished)
    #expect(try runner.finish(next) == 1_500)
  }

  @Test func anUnansweredOrDroppedPermitFreesAMarginLater() throws {
    for drop in [false, true] {
      let runner = VirtualTimeRunner()
      let clock = runner.clock
      let limiter = RateLimiter(permits: 1, per: .seconds(1), clock: clock)
      var permit: HeldPermit? = try runner.run { try await limiter.acquireUntilFinished { _ in } }
      runner.advance(to: .milliseconds(200))
      if drop { permit = nil } else { permit?.finish(mayStillArrive: true) }
      let next = runner.start {
        try await limiter.acquire()
        return clock.now.milliseconds
      }
      #expect(try runner.finish(next) == 2_200, "dropped: \(drop)")
      _ = permit
    }
  }
}
