// The shared budget's rule at its exact boundaries: a request holds its permit from its grant
// until exactly one window after its end, an unanswered one a margin longer, one in flight until
// its lease runs out.
import Testing

@testable import Pipeline

@Suite struct BudgetRuleTests {
  private let rule = BudgetRule(RateLimit(permits: 2, per: .seconds(5)))

  @Test func aPermitFreesExactlyOneWindowAfterItsRequestEnds() {
    let entries = [
      BudgetEntry(id: "a", grantedAt: 1_000, endedAt: 1_300), BudgetEntry(id: "b", grantedAt: 1_000, endedAt: 1_100),
    ]
    #expect(rule.decide(entries, now: 1_000) == .fullFor(5_100))
    // "b" frees at 1,100 + 5,000: one permit is free from then on, however late "a" ended.
    #expect(rule.decide(entries, now: 6_099) == .fullFor(1))
    #expect(rule.decide(entries, now: 6_100) == .grant)
  }

  @Test func aRequestInFlightHoldsItsPermitAtLeastAWindowFromNow() {
    let entries = [BudgetEntry(id: "a", grantedAt: 1_000), BudgetEntry(id: "b", grantedAt: 1_000, endedAt: 1_200)]
    #expect(rule.decide(entries, now: 1_500) == .fullFor(4_700), "b frees first, at 6,200")
    #expect(rule.decide(entries, now: 6_199) == .fullFor(1))
    #expect(rule.decide(entries, now: 6_200) == .grant)
    // Two in flight: neither frees before a window from now, however long they have run.
    let inFlight = [BudgetEntry(id: "a", grantedAt: 1_000), BudgetEntry(id: "b", grantedAt: 2_000)]
    #expect(rule.decide(inFlight, now: 30_000) == .fullFor(5_000))
  }

  @Test func anEntryInFlightPastItsLeaseCountsAsEndedWhenTheLeaseRanOut() {
    let lease = BudgetRule.lease
    let entries = [BudgetEntry(id: "dead", grantedAt: 0), BudgetEntry(id: "b", grantedAt: 0, endedAt: lease + 10_000)]
    #expect(rule.decide(entries, now: lease + 4_999) == .fullFor(1))
    #expect(rule.decide(entries, now: lease + 5_000) == .grant)
    // An end recorded after the lease is read as the lease's end.
    let late = [BudgetEntry(id: "slow", grantedAt: 0, endedAt: lease + 30_000), entries[1]]
    #expect(rule.decide(late, now: lease + 5_000) == .grant)
  }

  @Test func fewerEntriesThanPermitsAlwaysGrant() {
    #expect(rule.decide([], now: 0) == .grant)
    #expect(rule.decide([BudgetEntry(id: "a", grantedAt: 10)], now: 10) == .grant)
  }

  @Test func entriesOlderThanLeaseAndWindowAreForgettable() {
    let now: Int64 = 1_000_000
    let cut = rule.forgettable(before: now)
    #expect(cut == now - BudgetRule.lease - 5_000 - 1)
    let oldest = BudgetEntry(id: "x", grantedAt: cut + 1)
    #expect(rule.releaseInstant(of: oldest, now: now) == cut + 1 + BudgetRule.lease + 5_000)
    #expect(rule.releaseInstant(of: oldest, now: now) > now - 1, "the oldest kept may still hold a permit")
  }
}
