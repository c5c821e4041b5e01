// The built-in catalog as a catalog the engine searches: each category's index and the typo
// search were built ahead by the converter, so start-up takes views of the static arrays and
// reads, parses and builds nothing.
import CatalogData
import Pipeline
import Synchronization

extension BuiltInCatalog: CatalogItemStore {
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

  /// The names' folded forms, copied out of the static arrays once (for the tests, which check
  /// them and build the indexes again from them; the prebuilt indexes do not need them).
  func foldedNames() -> FoldedNames {
    if let copied = Self.copiedNames.names.withLock({ $0 }) { return copied }
    let names = copyFoldedNames()
    Self.copiedNames.names.withLock { $0 = names }
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

  /// The folded names once copied out (see `foldedNames()`).
  private static let copiedNames = CopiedNames()
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
