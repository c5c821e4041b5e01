// Catalogs kept as compact records render an item only when a search returns it: their answers
// must be exactly those of the same items given as `SearchItem`s.
import CatalogFiller
import Foundation
import TestSupport
import Testing

@testable import Catalog
@testable import Pipeline

@Suite struct CatalogStoreTests {
  @Test func compactCatalogAnswersExactlyLikeItsRenderedItems() async throws {
    try await OwnThread.running {
      let compact = CatalogSource()
      let catalog = BuiltInCatalog.shared
      let rendered = CatalogSource(items: (0..<catalog.count).map(catalog.item(at:)))
      var answered = 0
      // A rendered item has no other names (aliases, names in other scripts), so the terms are ones
      // none of those match: "love i" would also find 愛很簡單 by its English name.
      for term in ["tay", "taylor sw", "the", "the n", "beyonce", "metalica", "incepton", "love t", "serial", "inc"] {
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

  @Test func everyBuiltInItemIsWrittenFromItsRecordAsItsFieldsWouldBe() throws {
    let catalog = BuiltInCatalog.shared
    let encoder = JSONLinesEncoder()
    var differing: [Int] = []
    for position in 0..<catalog.count {
      let item = catalog.item(at: position)
      #expect(item.builtInCatalogPosition == position)
      let held = SearchItem(fields: item.fields)
      #expect(held.builtInCatalogPosition == nil)
      if encoder.encode(item) != encoder.encode(held) { differing.append(position) }
    }
    #expect(differing.isEmpty, "first: \(differing.prefix(5))")
    #expect(catalog.count > 20_000)
  }

  @Test func aBuiltInItemIsAValueLikeAnyOther() throws {
    let catalog = BuiltInCatalog.shared
    let original = try #require((0..<catalog.count).lazy.map(catalog.item(at:)).first { $0.price != nil })
    let held = SearchItem(fields: original.fields)
    #expect(original == held)
    #expect(original.hashValue == held.hashValue)
    #expect(Set([original, held]).count == 1)
    #expect(original.title == held.title && original.trackViewUrl == held.trackViewUrl)

    var changed = original
    changed.trackName = "Another Name"
    #expect(changed.trackName == "Another Name")
    #expect(changed.id == original.id && changed.releaseDate == original.releaseDate)
    #expect(original.trackName != "Another Name")
    #expect(changed != original)
    #expect(original.builtInCatalogPosition != nil && changed.builtInCatalogPosition == nil)

    var copy = changed
    copy.price = 1.5
    #expect(copy.price == 1.5 && changed.price == original.price)

    let data = try JSONEncoder().encode(original)
    #expect(try JSONDecoder().decode(SearchItem.self, from: data) == original)
    #expect(String(describing: original).hasPrefix("SearchItem(id: \(original.id), wrapperType: "))
  }
}
