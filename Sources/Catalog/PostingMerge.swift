// Walks the union of several posting lists in ascending rank order — best items first — without
// materialising it, so a search that needs 25 items reads about 25 entries per list, not all.
import Pipeline

/// A k-way merge of ascending lists of ranks, yielding each rank once.
///
/// The lists belong to one `PostingLists` (ranges of its flat array). A binary min-heap holds one
/// cursor per non-empty list; each step pops the smallest head and advances that cursor. A walk
/// that goes on long over many lists moves what is left of them into a bitmap of ranks and
/// reads it in order instead.
struct PostingMerge {
  private struct Cursor {
    var head: Int32
    var position: Int
    let end: Int
  }

  private let items: IndexTable<Int32>
  private var heap: [Cursor] = []
  private var last: Int32 = -1
  /// Ranks returned so far, and the count at which switching to a bitmap is next considered.
  private var returned = 0
  private var nextCheck = Self.firstCheck
  /// Once switched: the ranks not yet returned, bit `rank - bitsBase` of `bits`; `bitsWord` is
  /// the word being read and `remaining` its bits not yet returned.
  private var usesBits = false
  private var bits: [UInt64] = []
  private var bitsBase: Int32 = 0
  private var bitsWord = -1
  private var remaining: UInt64 = 0

  /// A walk that stops early (most find their items in the first few dozen ranks) never leaves
  /// the heap; one still going after this many ranks often reads thousands, at a heap step
  /// each. Checked again at each doubling of the ranks returned.
  private static let firstCheck = 32
  /// The fewest lists for which a bitmap can beat the heap's steps.
  private static let fewestLists = 8
  /// At most this many postings left per rank returned so far: the bitmap costs about a step
  /// per posting left, so a walk about to stop does not pay for lists it will never read.
  private static let postingsPerRank = 16

  /// A merge of the lists of `lists` numbered `words`.
  init(_ lists: PostingLists, words: CatalogWordSet) {
    self.init(lists, ranges: words.ranges)
  }

  /// A merge of the lists of `lists` numbered `words`.
  init(_ lists: PostingLists, words: Range<Int>) {
    self.init(lists, ranges: CollectionOfOne(words))
  }

  /// A merge of the lists of the words in `ranges`. The runs are read as ranges, not as one
  /// flattened sequence of ids, whose iteration cost more than the heap it filled.
  private init(_ lists: PostingLists, ranges: some Collection<Range<Int>>) {
    items = lists.items
    heap.reserveCapacity(ranges.reduce(0) { $0 + $1.count })
    for range in ranges {
      for word in range {
        let position = Int(lists.start[word])
        let end = Int(lists.start[word + 1])
        if position < end {
          heap.append(Cursor(head: items[position], position: position, end: end))
        }
      }
    }
    // Floyd's heap construction: sift down every inner node, last first.
    var node = heap.count / 2
    while node > 0 {
      node -= 1
      siftDown(node)
    }
  }

  /// The smallest rank not yet returned, or nil when every list is exhausted.
  mutating func next() -> Int32? {
    if usesBits { return nextFromBits() }
    returned += 1
    if returned >= nextCheck {
      nextCheck *= 2
      if switchToBits() { return nextFromBits() }
    }
    while !heap.isEmpty {
      let value = heap[0].head
      heap[0].position += 1
      if heap[0].position < heap[0].end {
        heap[0].head = items[heap[0].position]
      } else {
        heap[0] = heap[heap.count - 1]
        heap.removeLast()
      }
      if !heap.isEmpty { siftDown(0) }
      // Lists share ranks (an item with two matching words); each is yielded once.
      if value != last {
        last = value
        return value
      }
    }
    return nil
  }

  /// Moves every posting left into a bitmap of ranks above `last`, when the lists are many and
  /// hold few enough postings; returns whether it did.
  private mutating func switchToBits() -> Bool {
    guard heap.count >= Self.fewestLists else { return false }
    var postings = 0
    var highest = last
    for cursor in heap {
      postings += cursor.end - cursor.position
      highest = max(highest, items[cursor.end - 1])
    }
    guard postings <= Self.postingsPerRank * returned else { return false }
    // Every head is at least `last`; those equal to it were returned already.
    bitsBase = last + 1
    guard highest >= bitsBase else { return false }
    var bits = [UInt64](repeating: 0, count: Int(highest - bitsBase) / 64 + 1)
    for cursor in heap {
      for position in cursor.position..<cursor.end {
        let offset = Int(items[position] - bitsBase)
        if offset >= 0 { bits[offset >> 6] |= 1 << UInt64(offset & 63) }
      }
    }
    self.bits = bits
    heap = []
    usesBits = true
    return true
  }

  /// The next rank of the bitmap, nil when none is left.
  private mutating func nextFromBits() -> Int32? {
    while remaining == 0 {
      bitsWord += 1
      guard bitsWord < bits.count else { return nil }
      remaining = bits[bitsWord]
    }
    let bit = remaining.trailingZeroBitCount
    remaining &= remaining - 1
    last = bitsBase + Int32(bitsWord * 64 + bit)
    return last
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      if left >= heap.count { return }
      let right = left + 1
      let child = right < heap.count && heap[right].head < heap[left].head ? right : left
      if heap[child].head >= heap[parent].head { return }
      heap.swapAt(parent, child)
      parent = child
    }
  }
}
