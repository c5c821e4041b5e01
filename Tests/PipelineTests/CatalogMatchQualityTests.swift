// Every item of a catalog answer says how it matched, and a category that nothing matches whole
// answers with the longest run of the query's words that matches, marked partial.
import Catalog
import Pipeline
import TestSupport
import Testing

@Suite struct CatalogMatchQualityTests {
  static let source = CatalogSource(items: [
    CatalogTestItems.song(1, "Creep", artist: "Radiohead", popularity: 9),
    CatalogTestItems.song(2, "Creeping Death", artist: "Metallica", popularity: 5),
    CatalogTestItems.song(3, "Karma Police", artist: "Radiohead", popularity: 7),
  ])

  private func search(_ term: String) async throws -> [SearchItem] {
    try await Self.source.search(SearchRequest(term: term, category: .music, limit: 10))
  }

  @Test func eachItemSaysHowItMatched() async throws {
    let creep = try await search("creep")
    #expect(creep.map(\.id) == [1, 2])
    #expect(creep.map(\.match) == [.exact, .prefix])
    #expect(try await search("radiohead karma").map(\.match) == [.prefix])
    let typo = try await search("raidohead")
    #expect(typo.map(\.id) == [1, 3])
    #expect(typo.allSatisfy { $0.match == .typo(1) })
    #expect(try await search("radoihaed").first?.match == .typo(2))
  }

  @Test func aCategoryNothingMatchesWholeAnswersWithTheWordsThatMatch() async throws {
    // "zzyzx" matches nothing: dropped; "radiohead creep" matches whole.
    let dropped = try await search("radiohead creep zzyzx")
    #expect(dropped.map(\.id) == [1])
    #expect(dropped.first?.match == SearchMatch(.partial, matchedWords: ["radiohead", "creep"]))
    // Each word matches alone, not together: the longest run from the start.
    let run = try await search("metallica karma police")
    #expect(run.map(\.id) == [2])
    #expect(run.first?.match?.matchedWords == ["metallica"])
    // A word that matches nothing anywhere is dropped before the run is taken.
    #expect(try await search("zzyzx karma").first?.match?.matchedWords == ["karma"])
  }

  @Test func aCategoryIsEmptyOnlyWhenNoWordMatches() async throws {
    #expect(try await search("zzyzx qqqq").isEmpty)
  }
}
