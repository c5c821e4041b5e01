// The built-in catalog's indexes are built by its converter (build_catalog.py) and compiled in as
// static arrays. These tests build every category's index in Swift, the way any other store's is
// built, and check the converter's arrays are exactly those: the generated file cannot drift
// from the index the Swift code defines.
import TestSupport
import Testing

@testable import Catalog
@testable import Pipeline

@Suite struct CatalogPrebuiltIndexTests {
  @Test func thePrebuiltTrieIsTheOneSwiftBuilds() async {
    await OwnThread.running {
      let prebuilt = BuiltInCatalog.typoSearch.trie
      // Each word of the categories whose index has it (their catalog word ids are checked
      // against the Swift-built indexes' below).
      let words = BuiltInCatalog.shared.foldedNames().words
      var categories = [UInt32](repeating: 0, count: words.count)
      for (number, category) in BuiltInCatalog.indexedCategories.enumerated() {
        for id in BuiltInCatalog.indexes[category]?.catalogWords.values ?? [] { categories[Int(id)] |= 1 << number }
      }
      let built = WordTrie(words: words, categories: categories)
      let fields = { (trie: WordTrie) in
        trie.nodes.values.map {
          [
            UInt64($0.letter), UInt64($0.first_child), UInt64($0.first_word), UInt64($0.word_end), $0.child_letters,
            $0.letters_below,
          ]
        }
      }
      #expect(prebuilt.nodes.count > 1_000)
      #expect(fields(prebuilt) == fields(built), "trie nodes")
      #expect(prebuilt.depth == built.depth, "trie depth")
    }
  }

  @Test(arguments: BuiltInCatalog.indexedCategories)
  func thePrebuiltIndexIsTheOneSwiftBuilds(category: Category) async throws {
    try await OwnThread.running {
      let catalog = BuiltInCatalog.shared
      let prebuilt = try #require(BuiltInCatalog.indexes[category])
      let positions = (0..<catalog.count).filter { catalog.category(at: $0) == category }.map(UInt32.init)
      let built = CatalogIndex(
        store: catalog, positions: positions, names: catalog.foldedNames(),
        artistIsPrimary: CatalogRanking.artistIsPrimary(in: category),
        typoSearch: CatalogTypoSearch(trie: WordTrie(words: [], categories: [])), typoCategory: 1)
      #expect(prebuilt.positions.count > 100)
      #expect(prebuilt.positions.values == built.positions.values, "rank order")
      #expect(prebuilt.words.all == built.words.all, "dictionary")
      #expect(prebuilt.entries.values == built.entries.values, "entries")
      #expect(prebuilt.secondaryEntries.values == built.secondaryEntries.values, "secondary entries")
      #expect(prebuilt.entryBounds.values == built.entryBounds.values, "entry bounds")
      #expect(prebuilt.tokens.values == built.tokens.values, "tokens")
      #expect(prebuilt.itemWordBits.values == built.itemWordBits.values, "word bits")
      for (name, lists, expected) in [
        ("postings", prebuilt.postings, built.postings), ("name starts", prebuilt.nameStarts, built.nameStarts),
        ("name ends", prebuilt.nameEnds, built.nameEnds),
      ] {
        #expect(lists.start.values == expected.start.values, "\(name)")
        #expect(lists.items.values == expected.items.values, "\(name)")
      }
      #expect(prebuilt.catalogWords.values == built.catalogWords.values, "catalog word ids")
    }
  }

  @Test func everyRecordNamesNamesThatExist() async {
    await OwnThread.running {
      let catalog = BuiltInCatalog.shared
      let names = 0..<catalog.nameCount
      var outOfRange = 0
      for position in 0..<catalog.count {
        let record = catalog.records[position]
        for name in [record.track, record.collection, record.artist, record.genre]
        where name != CatalogItemNames.none && !names.contains(Int(name)) {
          outOfRange += 1
        }
      }
      #expect(outOfRange == 0)
      #expect(catalog.records[0].track != CatalogItemNames.none)
      #expect(catalog.name(Int(catalog.records[0].track)).isEmpty == false)
    }
  }

  @Test func anIndexBuiltAtRunTimeOwnsItsArrays() {
    // A table copies what it is given: the index stays valid after its inputs are gone.
    let table: IndexTable<Int32> = {
      let values: [Int32] = [3, 1, 4, 1, 5]
      return IndexTable(values)
    }()
    #expect(table.values == [3, 1, 4, 1, 5])
    #expect(Array(table[1..<3]) == [1, 4])
    #expect(IndexTable<Int32>([]).count == 0)
    let words = IndexWords([[0x61], [], [0x62, 0x63]])
    #expect(words.count == 3)
    #expect(words.all == [[0x61], [], [0x62, 0x63]])
  }
}
