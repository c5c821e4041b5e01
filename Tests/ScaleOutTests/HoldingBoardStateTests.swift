// What a worker's board decides alone: a shard acquired is held and claimed once, the reader's
// connection is named to unblock it, a lost holding goes but a newer one of the same shard stays,
// shutdown empties the board.
import Testing

@testable import ScaleOut

struct HoldingBoardStateTests {
  static func holding(_ shard: Int, _ token: String = "t1") -> ShardHolding {
    ShardHolding(shard: shard, lease: "\(token):w1")
  }

  @Test(arguments: [nil, 42] as [Int64?])
  func anAcquiredShardIsHeldClaimedOnceAndUnblocksTheReader(reader: Int64?) {
    var board = HoldingBoardState()
    board.readerClientID = reader
    let step1 = board.acquired(Self.holding(2))
    #expect(step1 == reader)
    let step2 = board.acquired(Self.holding(0))
    #expect(step2 == reader)
    let first = board.nextForReader()
    #expect(first.claim == [Self.holding(2), Self.holding(0)], "in the order acquired")
    #expect(first.held == [Self.holding(0), Self.holding(2)], "by shard")
    let step3 = board.nextForReader()
    #expect(step3.claim.isEmpty, "claimed once")
    #expect(board.holds(Self.holding(2)))
  }

  @Test func aLostHoldingGoesButANewerOneOfTheSameShardStays() {
    var board = HoldingBoardState()
    _ = board.acquired(Self.holding(1, "old"))
    _ = board.acquired(Self.holding(1, "new"))
    board.lost(Self.holding(1, "old"))
    #expect(board.holds(Self.holding(1, "new")) && !board.holds(Self.holding(1, "old")))
    let step4 = board.nextForReader()
    #expect(step4.claim == [Self.holding(1, "new")])
    board.lost(Self.holding(1, "new"))
    #expect(board.held.isEmpty)
  }

  @Test func aShardLostBeforeTheReaderLookedIsNotClaimed() {
    var board = HoldingBoardState()
    _ = board.acquired(Self.holding(3))
    board.lost(Self.holding(3))
    let next = board.nextForReader()
    #expect(next.claim.isEmpty && next.held.isEmpty)
  }

  @Test func shutdownEmptiesTheBoardAndReturnsWhatWasHeld() {
    var board = HoldingBoardState()
    _ = board.acquired(Self.holding(0))
    _ = board.acquired(Self.holding(1))
    #expect(Set(board.takeAll()) == [Self.holding(0), Self.holding(1)])
    #expect(board.held.isEmpty && board.toClaim.isEmpty)
  }
}
