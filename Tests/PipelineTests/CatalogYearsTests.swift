// Years come only from a licensed source or a curated fact, and an item without one shows no
// `releaseDate` at all. The counts of such items are pinned per kind, so that a regenerated catalog
// that loses years (a renamed curated file, an album title that no longer matches Chinook's) fails
// here instead of shipping quietly.
import TestSupport
import Testing

@testable import Pipeline

@Suite struct CatalogYearsTests {
  /// Items of each kind without a year in the catalog as checked in (docs/catalog.md says which
  /// groups and why). Lower a figure when curated years are added; never raise one to pass.
  static let withoutYear = ["song": 909, "album": 0, "feature-movie": 0, "podcast": 78, "tv-episode": 10]

  // Renders every item of the built-in catalog, a second in a debug build: on a thread of its own.
  @Test func itemsWithoutAYearStayAsFewAsPinned() async {
    let counts = await OwnThread.running { () -> (total: [String: Int], undated: [String: Int]) in
      let catalog = BuiltInCatalog.shared
      var total: [String: Int] = [:]
      var undated: [String: Int] = [:]
      for position in 0..<catalog.count {
        let item = catalog.item(at: position)
        let kind = item.kind ?? "none"
        total[kind, default: 0] += 1
        if item.releaseDate == nil { undated[kind, default: 0] += 1 }
      }
      return (total, undated)
    }
    #expect(counts.total["none"] == nil, "every item has a kind")
    #expect(Set(counts.total.keys) == Set(Self.withoutYear.keys))
    for (kind, pinned) in Self.withoutYear.sorted(by: { $0.key < $1.key }) {
      #expect(counts.undated[kind, default: 0] == pinned, "\(kind): items without a year")
    }
  }

  @Test func aYearIsFourDigitsOrAFullDay() async {
    let malformed = await OwnThread.running { () -> [String] in
      let catalog = BuiltInCatalog.shared
      return (0..<catalog.count).compactMap { position in
        guard let date = catalog.item(at: position).releaseDate else { return nil }
        let year = Int(date.prefix(4)) ?? 0
        let shapeIsKnown = date.count == 4 || (date.count == 10 && ReleaseDate.normalized(date) == date)
        return shapeIsKnown && (1000...2026).contains(year) ? nil : date
      }
    }
    #expect(malformed.isEmpty, "release dates of another shape: \(malformed.prefix(5))")
  }
}
