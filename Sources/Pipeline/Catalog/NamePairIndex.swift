// Posting lists of the first two words of every name, so tier 1 of a multi-word query ("the n",
// "dream to the h") walks only the items whose name starts with its first two words instead
// of every item with a name starting with the first.

/// For each distinct pair (first word, second word) of a name, the ascending ranks of the items
/// with such a name.
///
/// Pairs are sorted by first then second word id, and word ids follow the sorted dictionary,
/// so the pairs of one first word whose second word starts with a prefix are one contiguous
/// range: "the" followed by any word starting with "n" is a single range of pair ids.
struct NamePairIndex {
  /// Pair id → `first << 32 | second`, ascending.
  let keys: [UInt64]
  /// Pair id `p` → its ranks: `items[start[p] ..< start[p + 1]]`.
  let lists: PostingLists

  /// The pairs of the names of `rankCount` ranks, where the names of rank `r` are
  /// `tokens[bounds[3r + j] ..< bounds[3r + j + 1]]` for `j` in 0..<3.
  init(tokens: [Int32], bounds: [Int32], rankCount: Int) {
    let names = CatalogIndex.namesPerItem
    var keys: [UInt64] = []
    for name in 0..<(names * rankCount) where bounds[name + 1] - bounds[name] >= 2 {
      keys.append(Self.key(tokens[Int(bounds[name])], tokens[Int(bounds[name]) + 1]))
    }
    keys.sort()
    var distinct: [UInt64] = []
    for key in keys where distinct.last != key { distinct.append(key) }
    keys = []
    var pairs: [Int32] = []
    lists = PostingLists(wordCount: distinct.count, rankCount: rankCount) { rank in
      pairs.removeAll(keepingCapacity: true)
      for name in (names * rank)..<(names * (rank + 1)) where bounds[name + 1] - bounds[name] >= 2 {
        let key = Self.key(tokens[Int(bounds[name])], tokens[Int(bounds[name]) + 1])
        pairs.append(Int32(Self.lowerBound(of: key, in: distinct)))
      }
      return pairs[...]
    }
    self.keys = distinct
  }

  /// The ids of the pairs whose first word is `first` and second word is in `second`.
  func pairIds(first: Int32, second: Range<Int>) -> Range<Int> {
    guard !second.isEmpty else { return 0..<0 }
    let lower = Self.lowerBound(of: Self.key(first, Int32(second.lowerBound)), in: keys)
    let upper = Self.lowerBound(of: Self.key(first, Int32(second.upperBound)), in: keys)
    return lower..<max(lower, upper)
  }

  private static func key(_ first: Int32, _ second: Int32) -> UInt64 {
    UInt64(UInt32(bitPattern: first)) << 32 | UInt64(UInt32(bitPattern: second))
  }

  /// The first position in `keys` (ascending) holding a key not below `key`.
  private static func lowerBound(of key: UInt64, in keys: [UInt64]) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
