// The built-in catalog: real films, music, podcasts and TV episodes compiled into the binary by
// the CatalogData target as static arrays, with each category's search index already built, so
// that start-up takes views of them and reads, parses and builds nothing.
import CatalogData
import Synchronization

/// The embedded catalog (docs/catalog.md: sources, layout, popularity) as a `CatalogItemStore`.
///
/// `Sources/CatalogData/build_catalog.py` writes it: one record per item, every distinct name
/// once with the word ids of its folded forms, the sorted dictionary of those words, and per
/// category the arrays of its `CatalogIndex`, laid out as the index holds them. An answer's item
/// is its position, its fields read from the record when asked for.
struct BuiltInCatalog: CatalogItemStore, @unchecked Sendable {
  /// What a record says an item is.
  enum Kind: UInt8 {
    case song = 0x73
    case album = 0x61
    case movie = 0x6D
    case podcast = 0x70
    case tvEpisode = 0x74
  }

  /// One item: its names' numbers (`CatalogItemNames.none` for none), numeric fields and kind.
  typealias Record = stream_search_catalog_record

  /// The id of item 0; item `i` has id `firstId + i`.
  static let firstId = 1_500_000_000
  /// The catalog compiled into this binary.
  static let shared = BuiltInCatalog(stream_search_catalog_data().pointee)

  /// The categories of the prebuilt indexes, in the order the data lists them.
  static let indexedCategories: [Category] = [.music, .movies, .podcasts, .tvShow]

  /// One index per category, views of the prebuilt arrays.
  static let indexes: [Category: CatalogIndex] = {
    let data = stream_search_catalog_data().pointee
    var indexes: [Category: CatalogIndex] = [:]
    for (number, category) in indexedCategories.enumerated() {
      guard let index = data.indexes?[number] else { continue }
      indexes[category] = shared.index(index, typoCategory: 1 << number)
    }
    return indexes
  }()

  /// The typo search of the whole dictionary, which the indexes share.
  static let typoSearch: CatalogTypoSearch = {
    let data = stream_search_catalog_data().pointee
    return CatalogTypoSearch(
      trie: WordTrie(
        nodes: IndexTable(static: data.trie_nodes, count: Int(data.trie_node_count) + 1), depth: Int(data.trie_depth)))
  }()

  private let data: stream_search_catalog
  let records: IndexTable<Record>
  private let nameOffsets: IndexTable<Int32>
  /// The folded names once copied out (see `foldedNames()`).
  private let copiedNames = CopiedNames()

  init(_ data: stream_search_catalog) {
    self.data = data
    records = IndexTable(static: data.records, count: Int(data.item_count))
    nameOffsets = IndexTable(static: data.name_offsets, count: Int(data.name_count) + 1)
  }

  var count: Int { records.count }

  /// How many distinct names there are.
  var nameCount: Int { Int(data.name_count) }

  /// The distinct name numbered `id`.
  func name(_ id: Int) -> String {
    String(decoding: nameBytes(id), as: UTF8.self)
  }

  /// Per distinct name, whether JSON needs an escape in it (a quote, a backslash, a control
  /// character): checked once for all names, when the first item is written, rather than for
  /// every name of every item written.
  static let namesNeedingEscapes: [Bool] = (0..<shared.nameCount).map {
    JSONBytes.needsEscaping(shared.nameBytes($0))
  }

  /// The UTF-8 bytes of the distinct name numbered `id`.
  func nameBytes(_ id: Int) -> UnsafeBufferPointer<UInt8> {
    let start = Int(nameOffsets[id])
    let bytes = UnsafeRawPointer(data.name_bytes.unsafelyUnwrapped + start).assumingMemoryBound(to: UInt8.self)
    return UnsafeBufferPointer(start: bytes, count: Int(nameOffsets[id + 1]) - start)
  }

  /// The names' folded forms, copied out of the static arrays once (for the tests, which check
  /// them and build the indexes again from them; the prebuilt indexes do not need them).
  func foldedNames() -> FoldedNames {
    if let copied = copiedNames.names.withLock({ $0 }) { return copied }
    let names = copyFoldedNames()
    copiedNames.names.withLock { $0 = names }
    return names
  }

  private func copyFoldedNames() -> FoldedNames {
    let words = IndexWords(
      starts: IndexTable(static: data.word_starts, count: Int(data.word_count) + 1),
      scalars: IndexTable(
        static: data.word_scalars, count: data.word_count > 0 ? Int(data.word_starts[Int(data.word_count)]) : 0))
    let formStart = IndexTable(static: data.form_starts, count: nameCount + 1)
    let formCount = nameCount > 0 ? Int(formStart[nameCount]) : 0
    let formBounds = IndexTable(static: data.form_bounds, count: formCount + 1)
    let tokens = IndexTable(static: data.form_tokens, count: Int(formBounds[formCount]))
    return FoldedNames(
      words: words.all, formStart: formStart.values, formBounds: formBounds.values, tokens: tokens.values)
  }

  /// The views of one prebuilt index, whose words carry `typoCategory` in the trie.
  private func index(_ index: stream_search_catalog_index, typoCategory: UInt32) -> CatalogIndex {
    let (ranks, wordCount, entryCount) = (Int(index.rank_count), Int(index.word_count), Int(index.entry_count))
    func table<Element>(_ start: UnsafePointer<Element>?, _ count: Int) -> IndexTable<Element> {
      IndexTable(static: start, count: count)
    }
    func lists(_ start: UnsafePointer<Int32>?, _ items: UnsafePointer<Int32>?) -> PostingLists {
      let start = table(start, wordCount + 1)
      return PostingLists(start: start, items: table(items, Int(start[wordCount])))
    }
    let wordStarts = table(index.word_starts, wordCount + 1)
    let entryBounds = table(index.entry_bounds, entryCount + 1)
    return CatalogIndex(
      store: self, positions: table(index.positions, ranks),
      words: IndexWords(starts: wordStarts, scalars: table(index.word_scalars, Int(wordStarts[wordCount]))),
      postings: lists(index.posting_starts, index.postings),
      nameStarts: lists(index.name_start_starts, index.name_starts),
      nameEnds: lists(index.name_end_starts, index.name_ends), entries: table(index.entries, ranks + 1),
      secondaryEntries: table(index.secondary_entries, ranks), entryBounds: entryBounds,
      tokens: table(index.tokens, Int(entryBounds[entryCount])), itemWordBits: table(index.item_word_bits, ranks),
      typoSearch: Self.typoSearch, typoCategory: typoCategory, catalogWords: table(index.catalog_words, wordCount))
  }

  func category(at position: Int) -> Category? {
    switch Kind(rawValue: UInt8(bitPattern: records[position].kind)) {
    case .song, .album: .music
    case .movie: .movies
    case .podcast: .podcasts
    case .tvEpisode: .tvShow
    case nil: nil
    }
  }

  func rankKey(at position: Int) -> (popularity: Int, id: Int) {
    (Int(records[position].popularity), Self.firstId + position)
  }

  func names(at position: Int) -> CatalogItemNames {
    let record = records[position]
    return CatalogItemNames(track: record.track, collection: record.collection, artist: record.artist)
  }
}

/// The folded names of a `BuiltInCatalog` once copied, shared by its copies.
private final class CopiedNames: Sendable {
  let names = Mutex<FoldedNames?>(nil)
}

extension CatalogSource {
  /// Every item of the built-in catalog, rendered (for the benchmark's queries and tests).
  package static var builtInItems: [SearchItem] {
    (0..<BuiltInCatalog.shared.count).map(BuiltInCatalog.shared.item(at:))
  }
}
