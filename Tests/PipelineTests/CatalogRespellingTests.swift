// Names written as one word or as two: a query whose words are joined or split otherwise than
// the name's finds it, and both spellings put the same items first.
import Catalog
import Pipeline
import TestSupport
import Testing

@Suite struct CatalogRespellingTests {
  /// The built-in catalog, indexed once for all tests of the suite.
  static let builtIn = CatalogSource()

  /// The first `count` items for `term` in `category` of the built-in catalog.
  private func search(_ term: String, in category: Category = .music, count: Int = 25) async throws -> [SearchItem] {
    try await OwnThread.running {
      try await Self.builtIn.search(SearchRequest(term: term, category: category, limit: count))
    }
  }

  @Test(arguments: [
    ("sound garden", "soundgarden", Category.music, "Soundgarden"),
    ("cold play", "coldplay", .music, "Coldplay"),
    ("pink floyd", "pinkfloyd", .music, "Pink Floyd"),
    ("taylor swift", "taylorswift", .music, "Taylor Swift"),
  ])
  func anArtistIsFoundWrittenAsOneWordOrTwo(split: String, joined: String, category: Category, artist: String)
    async throws
  {
    let bySplit = try await search(split, in: category, count: 5)
    let byJoined = try await search(joined, in: category, count: 5)
    #expect(bySplit.first?.artistName == artist)
    #expect(byJoined.first?.artistName == artist)
    #expect(bySplit.map(\.id) == byJoined.map(\.id), "the same items first either way")
  }

  @Test(arguments: [
    ("star wars", "starwars", Category.movies, "Star Wars"),
    ("spider man", "spiderman", .movies, "Spider-Man"),
    ("shake it off", "shakeitoff", .music, "Shake It Off"),
  ])
  func aTitleIsFoundWrittenAsOneWordOrSeveral(split: String, joined: String, category: Category, title: String)
    async throws
  {
    let bySplit = try await search(split, in: category, count: 1)
    let byJoined = try await search(joined, in: category, count: 1)
    #expect(bySplit.first?.trackName == title)
    #expect(byJoined.first?.trackName == title)
  }

  @Test func aJoinedNameIsFoundWhileItsLastPartIsTyped() async throws {
    #expect(try await search("taylorsw").first?.artistName == "Taylor Swift")
    #expect(try await search("cold pl").first?.artistName == "Coldplay")
  }

  /// Splitting tries every cut of a word, so a word longer than any name written as one is
  /// searched as typed only: a pasted kilobyte costs no more than a short query.
  @Test func aWordLongerThanAnyJoinedNameIsNotSplit() async throws {
    let first = String(repeating: "q", count: 30)
    let fits = String(repeating: "w", count: 34)
    let tooLong = String(repeating: "z", count: 35)
    let source = CatalogSource(items: [
      CatalogTestItems.song(1, "\(first) \(fits)", artist: "Someone", popularity: 1),
      CatalogTestItems.song(2, "\(first) \(tooLong)", artist: "Someone Else", popularity: 1),
    ])
    let atTheLimit = try await source.search(SearchRequest(term: first + fits, category: .music, limit: 5))
    let pastTheLimit = try await source.search(SearchRequest(term: first + tooLong, category: .music, limit: 5))
    #expect(atTheLimit.map(\.id) == [1], "64 letters are split into the two words of the title")
    #expect(pastTheLimit.isEmpty, "65 letters are searched as typed only")
  }

  @Test func aRespellingRanksAfterTheQueryAsTypedInTheSameTier() async throws {
    let source = CatalogSource(items: [
      CatalogTestItems.song(1, "Garden Sound", artist: "Quiet", popularity: 9),
      CatalogTestItems.song(2, "Black Hole Sun", artist: "Soundgarden", popularity: 5),
      CatalogTestItems.song(3, "Sound Garden", artist: "Someone", popularity: 1),
    ])
    let ids = try await source.search(SearchRequest(term: "sound garden", category: .music, limit: 5)).map(\.id)
    // Tier 1: the name as typed, then as respelt; then every word somewhere (tier 3).
    #expect(ids == [3, 2, 1])
    let joined = try await source.search(SearchRequest(term: "soundgarden", category: .music, limit: 5)).map(\.id)
    #expect(joined == [2, 3])
  }

  @Test func aRespellingNeedsRealWordsAndNamesWrittenThatWay() async throws {
    let source = CatalogSource(items: [
      CatalogTestItems.song(1, "Metallica Live", artist: "Metallica", popularity: 1),
      CatalogTestItems.song(2, "Icarus", artist: "Metal Band", popularity: 9),
    ])
    // "metal" and "ica…" are words, but no name is written "Metal Ica…": the typo still answers.
    let found = try await source.search(SearchRequest(term: "metalica", category: .music, limit: 5))
    #expect(found.map(\.id) == [1])
  }
}
