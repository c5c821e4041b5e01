// A short word that is a real word of the catalog, typed where it names nothing, is not taken
// for a typo of another word: "jedi" among songs, "rogan" among films.
import Catalog
import Pipeline
import TestSupport
import Testing

@Suite struct CatalogTypoGuardTests {
  /// The built-in catalog, indexed once for all tests of the suite.
  static let builtIn = CatalogSource()

  private func search(_ term: String, in category: Category, source: CatalogSource = builtIn) async throws
    -> [SearchItem]
  {
    try await OwnThread.running {
      try await source.search(SearchRequest(term: term, category: category, limit: 25))
    }
  }

  @Test func aShortRealWordFillsNoCategoryWithItsTypos() async throws {
    #expect(try await search("jedi", in: .music).isEmpty, "no Édith Piaf for jedi")
    #expect(try await search("jedi", in: .movies).first?.trackName?.contains("Jedi") == true)
    #expect(try await search("rogan", in: .movies).first?.trackName != "Logan")
    #expect(try await search("rogan", in: .podcasts).first?.trackName == "The Joe Rogan Experience")
  }

  @Test func aShortWordThatIsNoWordStillFindsItsTypos() async throws {
    #expect(try await search("lizo", in: .music).first?.artistName == "Lizzo")
    #expect(try await search("draek", in: .music).first?.artistName == "Drake")
  }

  @Test func theGuardNeedsTheWordElsewhereAndOnlyShortWords() async throws {
    let source = CatalogSource(items: [
      CatalogTestItems.song(1, "Medi Blues", popularity: 1),
      CatalogTestItems.song(2, "Moonlight Sonatta", popularity: 1),
      SearchItem(id: 3, kind: "feature-movie", trackName: "The Jedi Path", popularity: 1),
      SearchItem(id: 4, kind: "feature-movie", trackName: "Moonlight Sonata", popularity: 1),
    ])
    // "jedi" is a word of the films: among songs it is not a typo of "medi".
    #expect(try await search("jedi", in: .music, source: source).isEmpty)
    // "medj" is no word anywhere: a typo of "medi".
    #expect(try await search("medj", in: .music, source: source).map(\.id) == [1])
    // Six letters and more keep their typos: "sonata" finds "Sonatta" among songs.
    #expect(try await search("moonlight sonata", in: .music, source: source).map(\.id) == [2])
  }
}
