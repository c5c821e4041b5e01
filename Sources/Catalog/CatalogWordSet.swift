// The dictionary words one query word matches, as runs of word ids: a prefix is one run, its
// typos a few more. Kept as sorted runs because that is how the dictionary hands them out; a
// set of many runs (a short word's typos) also gets a bitmap over the ids it spans, so that
// checking a candidate's words against it is one bit test per word, not a binary search.
import Pipeline

/// A set of word ids held as ascending, disjoint, non-empty ranges.
struct CatalogWordSet {
  private(set) var ranges: [Range<Int>] = []
  /// With more than `scannedRuns` runs: bit `id - bitmapBase` is set when `id` is in the set.
  private var bitmap: [UInt64] = []
  private var bitmapBase = 0
  /// The lowest id and one past the highest (0 and 0 when empty): most ids a candidate's words
  /// are checked for lie outside, and are told apart without reading the runs.
  private var lowest = 0
  private var end = 0

  /// Up to this many runs, `contains` scans them; past it, it reads the bitmap.
  private static let scannedRuns = 4

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
    } else {
      self.ranges.reserveCapacity(ranges.count)
      for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
        Self.append(range, to: &self.ranges)
      }
    }
    finish()
  }

  /// A set of `ranges` already ascending, disjoint and apart.
  private init(apart ranges: [Range<Int>]) {
    self.ranges = ranges
    finish()
  }

  /// Sets the span and, for many runs, the bitmap.
  private mutating func finish() {
    if let first = ranges.first, let last = ranges.last {
      lowest = first.lowerBound
      end = last.upperBound
    }
    buildBitmap()
  }

  /// Fills `bitmap` when there are more runs than a scan handles well. Its size is bounded by
  /// the span of the ids, so by the dictionary's word count.
  private mutating func buildBitmap() {
    guard ranges.count > Self.scannedRuns, let first = ranges.first, let last = ranges.last else { return }
    bitmapBase = first.lowerBound
    var bitmap = [UInt64](repeating: 0, count: (last.upperBound - bitmapBase + 63) / 64)
    for range in ranges {
      var id = range.lowerBound - bitmapBase
      let end = range.upperBound - bitmapBase
      while id < end {
        // Whole words where the run covers them, single bits at its ends.
        let bit = id & 63
        if bit == 0 && end - id >= 64 {
          bitmap[id >> 6] = ~0
          id += 64
        } else {
          bitmap[id >> 6] |= 1 << UInt64(bit)
          id += 1
        }
      }
    }
    self.bitmap = bitmap
  }

  var isEmpty: Bool { ranges.isEmpty }

  /// Every id, ascending.
  var ids: FlattenSequence<[Range<Int>]> { ranges.joined() }

  /// How many ids there are.
  var count: Int { ranges.reduce(0) { $0 + $1.count } }

  @inline(__always)
  func contains(_ id: Int32) -> Bool {
    let id = Int(id)
    guard id >= lowest, id < end else { return false }
    // Nearly always one or two runs: a scan beats a binary search.
    if ranges.count <= Self.scannedRuns {
      for range in ranges where range.contains(id) { return true }
      return false
    }
    let offset = id &- bitmapBase
    guard offset >= 0, offset >> 6 < bitmap.count else { return false }
    return bitmap[offset >> 6] & (1 << UInt64(offset & 63)) != 0
  }

  /// The union of both sets: one merge of their runs, both already in order (a prefix's run and
  /// its typos' runs interleave, and sorting them again cost more than the merge).
  func union(_ other: CatalogWordSet) -> CatalogWordSet {
    if other.isEmpty { return self }
    if isEmpty { return other }
    var merged: [Range<Int>] = []
    merged.reserveCapacity(ranges.count + other.ranges.count)
    var (left, right) = (0, 0)
    while left < ranges.count || right < other.ranges.count {
      let next: Range<Int>
      if right == other.ranges.count
        || (left < ranges.count && ranges[left].lowerBound <= other.ranges[right].lowerBound)
      {
        next = ranges[left]
        left += 1
      } else {
        next = other.ranges[right]
        right += 1
      }
      Self.append(next, to: &merged)
    }
    return CatalogWordSet(apart: merged)
  }

  /// Appends the non-empty `range`, starting no earlier than the last of `runs`, to those
  /// ascending runs: joined to the last when they overlap or touch, so that runs stay apart.
  static func append(_ range: Range<Int>, to runs: inout [Range<Int>]) {
    if let last = runs.last, range.lowerBound <= last.upperBound {
      runs[runs.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
    } else {
      runs.append(range)
    }
  }
}
