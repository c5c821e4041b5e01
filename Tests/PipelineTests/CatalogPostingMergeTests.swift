// The merge of posting lists and the word sets it reads, against plain set arithmetic: walks
// long enough to leave the heap for a bitmap, and word sets of enough runs to get one.
import Testing

@testable import Catalog
@testable import Pipeline

@Suite struct CatalogPostingMergeTests {
  /// `wordCount` words over `rankCount` ranks, each rank holding a few words picked by a fixed
  /// linear congruential sequence.
  private func lists(wordCount: Int, rankCount: Int, seed: UInt64) -> (PostingLists, [[Int32]]) {
    var state = seed
    var wordsOfRank: [[Int32]] = []
    for _ in 0..<rankCount {
      var words: [Int32] = []
      for _ in 0..<3 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        words.append(Int32((state >> 33) % UInt64(wordCount)))
      }
      wordsOfRank.append(words)
    }
    return (PostingLists(wordCount: wordCount, rankCount: rankCount) { wordsOfRank[$0][...] }, wordsOfRank)
  }

  @Test(arguments: [(40, 2_000), (200, 5_000), (12, 300)])
  func aWalkToTheEndYieldsTheUnionOfTheListsAscendingAndOnce(wordCount: Int, rankCount: Int) {
    let (lists, wordsOfRank) = lists(wordCount: wordCount, rankCount: rankCount, seed: UInt64(wordCount))
    for words in [0..<wordCount, 1..<wordCount / 2, wordCount / 3..<min(wordCount, wordCount / 3 + 9)] {
      var merge = PostingMerge(lists, words: words)
      var found: [Int32] = []
      while let rank = merge.next() { found.append(rank) }
      let expected = (0..<rankCount).filter { rank in wordsOfRank[rank].contains { words.contains(Int($0)) } }
      #expect(found == expected.map(Int32.init))
      #expect(merge.next() == nil)
    }
  }

  @Test func aSetOfManyRunsHoldsExactlyItsIds() {
    let ranges = [3..<5, 9..<10, 60..<200, 201..<203, 300..<301, 64..<70, 500..<640]
    let set = CatalogWordSet(ranges)
    for id in -5..<700 {
      #expect(set.contains(Int32(id)) == ranges.contains { $0.contains(id) }, "id \(id)")
    }
  }
}
