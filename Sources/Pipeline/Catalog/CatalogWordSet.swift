// The dictionary words one query word matches, as runs of word ids: a prefix is one run, its
// typos a few more. Kept as sorted runs because that is how the dictionary hands them out.

/// A set of word ids held as ascending, disjoint, non-empty ranges.
struct CatalogWordSet {
  private(set) var ranges: [Range<Int>] = []

  /// The union of `ranges` (in any order, overlapping or empty).
  init(_ ranges: [Range<Int>]) {
    // Nearly always in order already (a prefix's one run, the trie's runs in id order): kept as
    // they are, with no copy, sort or merge.
    var previousEnd = Int.min
    var isOrdered = true
    for range in ranges {
      guard !range.isEmpty, range.lowerBound > previousEnd else {
        isOrdered = false
        break
      }
      previousEnd = range.upperBound
    }
    if isOrdered {
      self.ranges = ranges
      return
    }
    for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = self.ranges.last, range.lowerBound <= last.upperBound {
        self.ranges[self.ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        self.ranges.append(range)
      }
    }
  }

  var isEmpty: Bool { ranges.isEmpty }

  /// Every id, ascending.
  var ids: FlattenSequence<[Range<Int>]> { ranges.joined() }

  /// How many ids there are.
  var count: Int { ranges.reduce(0) { $0 + $1.count } }

  @inline(__always)
  func contains(_ id: Int32) -> Bool {
    let id = Int(id)
    // Nearly always one or two runs: a scan beats a binary search.
    if ranges.count <= 4 {
      for range in ranges where range.contains(id) { return true }
      return false
    }
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound <= id { low = middle + 1 } else { high = middle }
    }
    return low < ranges.count && ranges[low].contains(id)
  }

  /// The union of both sets.
  func union(_ other: CatalogWordSet) -> CatalogWordSet {
    if other.isEmpty { return self }
    if isEmpty { return other }
    return CatalogWordSet(ranges + other.ranges)
  }
}
