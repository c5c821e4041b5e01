// The arrays of a catalog index, held so that one type serves an index built at run time and the
// built-in catalog's, which the converter builds ahead and the binary carries as static arrays:
// start-up takes views of those instead of building anything.

/// A read-only run of plain values: a view of static memory, or a copy it owns.
///
/// Reads are unchecked in release builds (checked in debug builds), like the buffers they wrap;
/// the positions read come from the index's own arrays, which the tests check against the rule.
struct IndexTable<Element: BitwiseCopyable>: @unchecked Sendable {
  /// The values; valid as long as this table (and any copy of it) lives.
  let buffer: UnsafeBufferPointer<Element>
  /// Keeps an owned copy alive; nil for static memory.
  private let owner: TableStorage?

  /// A view of `count` values at `start`, which must stay valid and unchanged for the life of the
  /// process (static data); `start` may be nil only for a count of 0.
  init(static start: UnsafePointer<Element>?, count: Int) {
    buffer = UnsafeBufferPointer(start: count > 0 ? start : nil, count: count)
    owner = nil
  }

  /// A copy of `values`, freed with the last copy of the table.
  init(_ values: [Element]) {
    let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(1, values.count))
    _ = memory.initialize(from: values)
    buffer = UnsafeBufferPointer(rebasing: memory[..<values.count])
    owner = TableStorage(UnsafeMutableRawPointer(memory.baseAddress))
  }

  var count: Int { buffer.count }

  @inline(__always)
  subscript(position: Int) -> Element { buffer[position] }

  @inline(__always)
  subscript(positions: Range<Int>) -> Slice<UnsafeBufferPointer<Element>> { buffer[positions] }

  /// The values as an array (for tests and comparisons).
  var values: [Element] { Array(buffer) }
}

/// Memory a table owns, freed when the last table sharing it goes.
private final class TableStorage: @unchecked Sendable {
  private let memory: UnsafeMutableRawPointer?

  init(_ memory: UnsafeMutableRawPointer?) {
    self.memory = memory
  }

  deinit {
    memory?.deallocate()
  }
}

/// The words of a dictionary laid out flat: word `w` is the scalars
/// `scalars[starts[w] ..< starts[w + 1]]`.
struct IndexWords: Sendable {
  let starts: IndexTable<Int32>
  let scalars: IndexTable<UInt32>

  init(starts: IndexTable<Int32>, scalars: IndexTable<UInt32>) {
    self.starts = starts
    self.scalars = scalars
  }

  /// `words` laid out flat, in their order.
  init(_ words: [FoldedWord]) {
    var starts: [Int32] = [0]
    var scalars: [UInt32] = []
    for word in words {
      scalars.append(contentsOf: word)
      starts.append(Int32(scalars.count))
    }
    self.init(starts: IndexTable(starts), scalars: IndexTable(scalars))
  }

  var count: Int { starts.count - 1 }

  /// The scalars of word `id`.
  @inline(__always)
  subscript(id: Int) -> UnsafeBufferPointer<UInt32> {
    UnsafeBufferPointer(rebasing: scalars.buffer[Int(starts[id])..<Int(starts[id + 1])])
  }

  /// Every word, as arrays (for tests and the ranking rule's definition).
  var all: [FoldedWord] { (0..<count).map { Array(self[$0]) } }
}
