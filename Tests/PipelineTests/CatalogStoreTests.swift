// The built-in catalog is kept as compact records and renders an item only when a search
// returns it: its answers must be exactly those of the same items given as `SearchItem`s.
@testable import Pipeline
import Testing

@Suite struct CatalogStoreTests {
  @Test func compactCatalogAnswersExactlyLikeItsRenderedItems() async throws {
    let compact = CatalogSource()
    let rendered = CatalogSource(items: CatalogSource.generatedItems())
    var answered = 0
    for term in ["tay", "taylor sw", "the", "the n", "beyonce", "tylor", "ceramik", "love i", "serial", "inc"] {
      for category in Category.defaults {
        let request = SearchRequest(term: term, category: category, limit: 25)
        let fromRecords = try await compact.search(request)
        #expect(fromRecords == (try await rendered.search(request)), "\(term) [\(category)]")
        if !fromRecords.isEmpty { answered += 1 }
      }
    }
    #expect(answered >= 12)
  }

  @Test func recordsRenderTheSameItemsAsTheGenerator() {
    let catalog = GeneratedCatalog(count: 3_000)
    let items = CatalogSource.generatedItems(count: 3_000)
    #expect(catalog.count == items.count)
    #expect((0..<catalog.count).allSatisfy { catalog.item(at: $0) == items[$0] })
    #expect(Set(catalog.nameTable).count == catalog.nameCount, "every name is stored once")
  }

  @Test func aTypoInALongWalkStillFindsItsItem() async throws {
    // "strnger" is one edit from "stranger" (two from "strange"), words in thousands of names: the typo tier walks
    // long candidate lists (on bitmaps) and must still rank the exact-typo items.
    let source = CatalogSource(items: CatalogSource.generatedItems(count: 20_000))
    let items = try await source.search(SearchRequest(term: "strnger", category: .music, limit: 25))
    #expect(items.count == 25)
    #expect(items.allSatisfy { item in
      [item.trackName, item.collectionName, item.artistName].contains { $0?.lowercased().contains("strange") == true }
    })
  }
}
