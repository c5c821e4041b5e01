// Catalogs kept as compact records render an item only when a search returns it: their answers
// must be exactly those of the same items given as `SearchItem`s. The embedded reader skips
// lines it cannot use.
import CatalogFiller
import TestSupport
import Testing

@testable import Pipeline

@Suite struct CatalogStoreTests {
  @Test func compactCatalogAnswersExactlyLikeItsRenderedItems() async throws {
    try await OwnThread.running {
      let compact = CatalogSource()
      let catalog = BuiltInCatalog.shared
      let rendered = CatalogSource(items: (0..<catalog.count).map(catalog.item(at:)))
      var answered = 0
      for term in ["tay", "taylor sw", "the", "the n", "beyonce", "metalica", "incepton", "love i", "serial", "inc"] {
        for category in Category.defaults {
          let request = SearchRequest(term: term, category: category, limit: 25)
          let fromRecords = try await compact.search(request)
          #expect(fromRecords == (try await rendered.search(request)), "\(term) [\(category)]")
          if !fromRecords.isEmpty { answered += 1 }
        }
      }
      #expect(answered >= 12)
    }
  }

  @Test func aTypoInALongWalkStillFindsItsItem() async throws {
    try await OwnThread.running {
      // "strnger" is one edit from "stranger" (two from "strange"), words in thousands of names: the typo tier walks
      // long candidate lists and must still rank the exact-typo items.
      let source = CatalogSource(items: CatalogSource.generatedItems(count: 20_000))
      let items = try await source.search(SearchRequest(term: "strnger", category: .music, limit: 25))
      #expect(items.count == 25)
      #expect(
        items.allSatisfy { item in
          [item.trackName, item.collectionName, item.artistName].contains {
            $0?.lowercased().contains("strange") == true
          }
        })
    }
  }

  @Test func theReaderLeavesOutLinesItCannotUse() throws {
    let text = """
      stream-search catalog 3
      words 3
      hello
      lo
      world
      names 3
      Hello\t0\t1
      World\t2
      Odd\t0 x
      items 3
      s\t0\t-\t1\t-\t2014\t5\t0\t99
      not an item
      m\t1\t-\t9\t-\t\t1\t0\t0

      """
    let catalog = Array(text.utf8).withUnsafeBytes { BuiltInCatalog($0) }
    try #require(catalog.count == 1)
    #expect(catalog.malformedLines == 3, "a form that is no word number, a line of another shape, a name out of range")
    let item = catalog.item(at: 0)
    #expect(item.trackName == "Hello")
    #expect(item.artistName == "World")
    #expect(item.releaseDate == "2014")
    #expect(item.price == 0.99)
    let folded = catalog.foldedNames()
    #expect(folded.forms(ofName: 0).map { Array(folded.words(ofForm: $0)) } == [[0], [1]])
    #expect(folded.forms(ofName: 2).isEmpty, "a name whose forms do not read has none")
    #expect(BuiltInCatalog(UnsafeRawBufferPointer(start: nil, count: 0)).count == 0)
  }
}
