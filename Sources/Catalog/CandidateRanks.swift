// The candidates of a tier, in rank order: the union of some posting lists, or, when those lists
// cover much of the catalog, simply every rank. A short prefix ("s") starts thousands of words:
// merging their lists costs more than checking the best items one by one, of which about every
// second or third already matches.
import Pipeline

/// Ranks in ascending order: those in the posting lists of some words, or all of them.
struct CandidateRanks {
  /// The merge of the lists, of none when every rank is a candidate. Not an optional: stepping
  /// the merge through one copied it out and back at every rank.
  private var merge: PostingMerge
  private var nextRank: Int32 = 0
  private let rankCount: Int32

  /// Whether every rank is a candidate (the caller must then check the words the lists stood for).
  let isEveryRank: Bool

  /// The ranks in `lists` of `words`; every rank instead when that is cheaper. For `alone` (the
  /// tier needs nothing else of an item), when checking ranks one by one until `limit` of them
  /// have one of the words costs less than merging the words' lists; otherwise only when the
  /// words are many and their lists hold more than an eighth of the ranks.
  init(_ lists: PostingLists, words: CatalogWordSet, rankCount: Int, limit: Int, alone: Bool) {
    self.rankCount = Int32(rankCount)
    let postings = words.ranges.reduce(0) { $0 + lists.count(in: $1) }
    let count = words.count
    let everyRank: Bool
    if alone {
      // About `rankCount / postings` ranks are checked per item found, a few instructions each;
      // a merge sets up one cursor per word and pops a heap per item.
      everyRank = count > 8 && limit * rankCount < 2 * count * max(1, postings)
    } else {
      everyRank = count > 32 && postings > rankCount / 8
    }
    isEveryRank = everyRank
    merge = PostingMerge(lists, words: everyRank ? CatalogWordSet([]) : words)
  }

  /// The next rank, nil when there are no more.
  mutating func next() -> Int32? {
    guard isEveryRank else { return merge.next() }
    guard nextRank < rankCount else { return nil }
    defer { nextRank += 1 }
    return nextRank
  }
}
