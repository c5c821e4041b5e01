// The balancing rule: every worker computes the same fair share from the same live set, and
// only the excess moves when a worker joins or leaves.
import Testing

@testable import ScaleOut

@Suite struct ShardBalanceTests {
  @Test func sharesAddUpToEveryShard() {
    for workers in 1...7 {
      let names = (0..<workers).map { "w\($0)" }
      let targets = names.map { ShardBalance.share(of: $0, live: names, shardCount: 16).target }
      #expect(targets.reduce(0, +) == 16)
      #expect((targets.max() ?? 0) - (targets.min() ?? 0) <= 1)
    }
  }

  @Test func aWorkerNotYetSeenCountsItself() {
    let share = ShardBalance.share(of: "new", live: ["a", "b"], shardCount: 12)
    #expect(share.workers == 3)
    #expect(share.target == 4)
  }

  @Test func theExcessIsTheHighestShards() {
    #expect(ShardBalance.excess(owned: [0, 3, 5, 9], target: 2) == [9, 5])
    #expect(ShardBalance.excess(owned: [0, 3], target: 2) == [])
  }

  @Test func candidatesAreTheWorkersOwnFirstUpToItsShare() {
    let candidates = ShardBalance.candidates(free: [0, 1, 2, 3, 4, 5], ownedCount: 1, target: 4, index: 1, workers: 2)
    #expect(candidates == [1, 3, 5])
    #expect(ShardBalance.candidates(free: [0, 1], ownedCount: 4, target: 4, index: 0, workers: 2) == [])
  }

  @Test func aJoiningWorkerMovesOnlyTheExcess() {
    // Worker a held all 8; b joins: a's share is 4, so a gives back 4 and keeps the rest.
    let share = ShardBalance.share(of: "a", live: ["a", "b"], shardCount: 8)
    let released = ShardBalance.excess(owned: Set(0..<8), target: share.target)
    #expect(released.count == 4)
    #expect(Set(0..<8).subtracting(released).count == 4)
  }
}
