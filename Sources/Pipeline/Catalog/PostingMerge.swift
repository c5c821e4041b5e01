// Walks the union of several posting lists in ascending rank order — best items first — without
// materialising it, so a search that needs 25 items reads about 25 entries per list, not all.

/// A k-way merge of ascending lists of ranks, yielding each rank once.
///
/// The lists belong to one `PostingLists` (ranges of its flat array). A binary min-heap holds one
/// cursor per non-empty list; each step pops the smallest head and advances that cursor.
struct PostingMerge {
  private struct Cursor {
    var head: Int32
    var position: Int
    let end: Int
  }

  private let items: IndexTable<Int32>
  private var heap: [Cursor] = []
  private var last: Int32 = -1

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
