// How the catalog matches and ranks: folding and equivalences, typos, the ranking tiers,
// popularity order, the limit and the category filter, on the built-in catalog and on small
// hand-made ones.
import Catalog
import CatalogFiller
import Pipeline
import TestSupport
import Testing

@Suite struct CatalogMatchingTests {
  /// The built-in catalog, indexed once for all tests of the suite (seconds in a debug build).
  static let builtIn = CatalogSource()
  /// The generated filler, for names the real catalog lacks (long made-up words, kana).
  static let generated = CatalogSource(items: CatalogSource.generatedItems())

  /// Searches `source` on a thread of its own, where `source` is also evaluated: the first use of
  /// either shared catalog builds it, and every other test using it meanwhile waits inside
  /// `swift_once`, which on a task thread would hold that thread.
  private func search(
    _ term: String, in category: Category = .music, limit: Int = 25,
    source: @autoclosure @Sendable () -> CatalogSource = builtIn
  ) async throws -> [SearchItem] {
    try await OwnThread.running {
      try await source().search(SearchRequest(term: term, category: category, limit: limit))
    }
  }

  // MARK: The built-in and the generated catalogs

  @Test func aTypoInALongWordStillFindsTheArtist() async throws {
    let items = try await search("metalica")
    #expect(items.first?.artistName == "Metallica")
    #expect(try await search("incepton", in: .movies).first?.trackName == "Inception")
  }

  @Test func aTypoNeedsFourLettersAndMayBeInTheFirstLetter() async throws {
    #expect(try await search("lizo").first?.artistName == "Lizzo")
    #expect(try await search("kizzo").first?.artistName == "Lizzo")
    #expect(try await search("draek").first?.artistName == "Drake")
    let source = CatalogSource(items: [CatalogTestItems.row(1, "Lizzo Live", "Lizzo", 1)])
    #expect(try await search("lzo", source: source).isEmpty, "three letters get no typo")
    let eminem = try await search("eminem", limit: 200)
    #expect(!eminem.isEmpty)
    // "Meinem" is a swap away, but typos are answered only when nothing matches exactly.
    #expect(
      eminem.allSatisfy { item in
        [item.trackName, item.collectionName, item.artistName].contains { $0?.contains("Eminem") == true }
      })
  }

  @Test func twoTyposFromEightLettersButOneAmongTheFirstThree() async throws {
    let source = CatalogSource(items: [CatalogTestItems.movie(1, "Interstellar", popularity: 1)])
    for term in ["intrstelar", "inxyrstellar", "intersetllar", "interstelar"] {
      #expect(try await search(term, in: .movies, source: source).map(\.id) == [1], "\(term)")
    }
    // Three typos; two before the fourth letter.
    for term in ["ixtxrstxllar", "xyterstellar"] {
      #expect(try await search(term, in: .movies, source: source).isEmpty, "\(term)")
    }
    // Seven letters: one typo only.
    let story = CatalogSource(items: [CatalogTestItems.movie(2, "Toy Story", popularity: 1)])
    #expect(try await search("toy stroy", in: .movies, source: story).map(\.id) == [2])
    #expect(try await search("toy sotr", in: .movies, source: story).map(\.id) == [2], "a typo of its start")
    // Beyond the allowance the last word matches nothing: "toy" alone answers, marked partial.
    let partial = try await search("toy sotyr", in: .movies, source: story)
    #expect(partial.map(\.id) == [2])
    #expect(partial.first?.match == SearchMatch(.partial, matchedWords: ["toy"]))
  }

  @Test func spellingsOfOneThingMeet() async throws {
    let song = CatalogTestItems.row
    let source = CatalogSource(items: [
      song(1, "Little Lion Man", "Mumford & Sons", 1), song(2, "Paradise City", "Guns N' Roses", 1),
      song(3, "Sweet Child o' Mine", "Guns N' Roses", 2), song(4, "Dog Days Are Over", "Florence + the Machine", 1),
      song(5, "Back in Black", "AC/DC", 1), song(6, "Hey Jude", "The Beatles", 1),
      song(7, "Rock 'n' Roll Train", "AC/DC", 0),
    ])
    let cases: [(String, [Int])] = [
      ("mumford and sons", [1]), ("mumford & sons", [1]), ("guns and roses", [3, 2]), ("guns n roses", [3, 2]),
      ("guns n' roses", [3, 2]), ("sweet child of mine", [3]), ("florence and the machine", [4]),
      ("acdc", [5, 7]), ("ac dc", [5, 7]), ("beatles", [6]), ("rock and roll", [7]), ("rock n roll train", [7]),
    ]
    for (term, expected) in cases {
      #expect(try await search(term, source: source).map(\.id) == expected, "\(term)")
    }
    // "guns n" is still being typed: "n" may yet become "n'" or "nation".
    #expect(try await search("guns n", source: source).map(\.id) == [3, 2])
  }

  @Test func numbersMatchInDigitsRomanNumeralsAndWords() async throws {
    func movie(_ id: Int, _ title: String, popularity: Int) -> SearchItem {
      CatalogTestItems.movie(id, title, popularity: popularity)
    }
    let source = CatalogSource(items: [
      movie(1, "Frozen II", popularity: 2), movie(2, "Frozen", popularity: 3), movie(3, "Rocky V", popularity: 1),
      movie(4, "Star Wars: Episode I – The Phantom Menace", popularity: 1), movie(5, "Toy Story 4", popularity: 1),
      movie(6, "Ocean's Eleven", popularity: 1), movie(7, "Who Am I", popularity: 1),
    ])
    let cases: [(String, [Int])] = [
      ("frozen 2", [1]), ("frozen ii", [1]), ("frozen two", [1]), ("rocky 5", [3]), ("rocky five", [3]),
      ("episode 1", [4]), ("toy story four", [5]), ("toy story iv", [5]), ("oceans 11", [6]), ("who am i", [7]),
    ]
    for (term, expected) in cases {
      #expect(try await search(term, in: .movies, source: source).map(\.id) == expected, "\(term)")
    }
    // "I" alone is a pronoun, not one: "who am 1" is not "Who Am I".
    #expect(try await search("who am 1", in: .movies, source: source).allSatisfy { $0.match?.quality == .partial })
  }

  @Test func aFilmFoundThroughItsDirectorComesAfterFilmsFoundByTitle() async throws {
    let source = CatalogSource(items: [
      CatalogTestItems.movie(1, "Oppenheimer", director: "Christopher Nolan", popularity: 100),
      CatalogTestItems.movie(2, "Christopher Robin", director: "Marc Forster", popularity: 1),
      CatalogTestItems.movie(3, "Nolan Sisters", popularity: 1),
    ])
    #expect(try await search("christopher", in: .movies, source: source).map(\.id) == [2, 1])
    #expect(try await search("nolan", in: .movies, source: source).map(\.id) == [3, 1])
    #expect(try await search("christopher nolan", in: .movies, source: source).map(\.id) == [1])
  }

  @Test func typosInALongWordStillFindCeramicNames() async throws {
    // "ceramik": one wrong letter; "ceramiccs": two extra letters, two edits for 9 letters.
    for term in ["ceramik", "ceramiccs"] {
      let items = try await search(term, limit: 200, source: Self.generated)
      let first = try #require(items.first, "\(term)")
      let names = [first.trackName, first.collectionName, first.artistName].compactMap { $0 }
      #expect(names.contains { $0.lowercased().contains("ceramic") }, "\(term): \(names)")
      #expect(items.contains { $0.trackName?.hasPrefix("Ceramic") == true }, "\(term)")
    }
  }

  @Test func accentsAreIgnoredInQueriesAndNames() async throws {
    let plain = try await search("beyonce")
    let accented = try await search("BEYONCÉ")
    #expect(plain.first?.artistName == "Beyoncé")
    #expect(plain == accented)
    let motorhead = try await search("motorhead")
    #expect(motorhead.first?.artistName == "Motörhead")
  }

  @Test func caseIsIgnored() async throws {
    let upper = try await search("TAYLOR")
    let lower = try await search("taylor")
    #expect(!lower.isEmpty)
    #expect(upper == lower)
  }

  @Test func kanaAndPunctuatedNamesAreFound() async throws {
    let kana = try await search("ヒカル", source: Self.generated)
    #expect(kana.first?.artistName == "宇多田ヒカル")
    let acdc = try await search("ac/dc")
    #expect(acdc.first?.artistName == "AC/DC")
  }

  @Test func everyWordOfAMultiWordQueryMustMatch() async throws {
    let items = try await search("swift tay")
    #expect(!items.isEmpty)
    #expect(
      items.allSatisfy { item in
        let names = [item.trackName, item.collectionName, item.artistName].compactMap { $0?.lowercased() }
        let words = names.joined(separator: " ")
        return words.contains("swift") && words.contains("tay")
      })
  }

  @Test func theLimitCapsTheAnswer() async throws {
    #expect(try await search("a", limit: 3).count == 3)
    #expect(try await search("a", limit: 0).isEmpty)
    let many = try await search("love", limit: 200)
    #expect(many.count == 200)
  }

  @Test func onlyItemsOfTheRequestedCategoryAreReturned() async throws {
    let podcasts = try await search("serial", in: .podcasts)
    #expect(podcasts.first?.trackName == "Serial")
    #expect(podcasts.allSatisfy { $0.kind == "podcast" })
    let movies = try await search("inception", in: .movies)
    #expect(movies.first?.trackName == "Inception")
    #expect(movies.allSatisfy { $0.kind == "feature-movie" })
    let songs = try await search("inception", in: .music)
    #expect(!songs.isEmpty)
    #expect(songs.allSatisfy { Category(kind: $0.kind, wrapperType: $0.wrapperType) == .music })
    #expect(try await search("inception", in: .ebook).isEmpty)
  }

  @Test func aTermWithoutLettersOrDigitsMatchesNothing() async throws {
    #expect(try await search("").isEmpty)
    #expect(try await search("?! -").isEmpty)
  }

  @Test func identifiesItselfAsTheLocalCatalog() {
    let source = CatalogSource(items: [])
    #expect(source.name == "catalog")
    #expect(source.isRemote == false)
    #expect(source.performsRealIO == false)
  }

  // MARK: Hand-made catalogs

  @Test func namePrefixBeatsWordPrefixAndNothingMatchesMidWord() async throws {
    let source = CatalogSource(items: CatalogTestItems.tiers)
    let items = try await search("star", source: source)
    #expect(items.map(\.id) == [4, 3])
    #expect(try await search("tar", source: source).isEmpty)
  }

  @Test func aNameThatIsTheQueryComesBeforeNamesStartingWithIt() async throws {
    let song = CatalogTestItems.row
    let source = CatalogSource(items: [
      song(1, "Radioactive", "Imagine Dragons", 100), song(2, "Imagine", "John Lennon", 1),
      song(3, "Believer", "Imagine Dragons", 90), song(4, "Creepin'", "Metro Boomin", 80),
      song(5, "Creep", "Radiohead", 2), song(6, "New York Nights", "A", 70), song(7, "New York", "B", 3),
    ])
    #expect(try await search("imagine", source: source).map(\.id) == [2, 1, 3])
    #expect(try await search("CREEP", source: source).map(\.id) == [5, 4])
    #expect(try await search("new york", source: source).map(\.id) == [7, 6])
    // Not yet the whole name: both only start with the query, so popularity decides.
    #expect(try await search("imagin", source: source).map(\.id) == [1, 3, 2])
  }

  @Test func aTypoIsAnsweredOnlyWhenNothingBetterMatches() async throws {
    let song = CatalogTestItems.row
    let queen = song(1, "Bohemian Rhapsody", "Queen", 1)
    // "rapsody" starts "Rapsody Blue": the typo match of "Rhapsody" is not shown beside it.
    let both = CatalogSource(items: [queen, song(2, "Rapsody Blue", "Someone", 100)])
    #expect(try await search("rapsody", source: both).map(\.id) == [2])
    #expect(try await search("rapsody", source: CatalogSource(items: [queen])).map(\.id) == [1])
  }

  @Test func withinATierHigherPopularityComesFirstThenLowerId() async throws {
    let song = CatalogTestItems.row
    let source = CatalogSource(items: [
      song(30, "Lone Star", "A", 10), song(20, "Star Maps", "B", 5), song(10, "Stardust", "C", 5),
      song(40, "Starling", "D", 70), song(50, "North Star", "E", 90),
    ])
    let items = try await search("star", source: source)
    #expect(items.map(\.id) == [40, 10, 20, 50, 30])
  }

  @Test func wordsMatchInAnyOrderButNamePrefixesComeFirst() async throws {
    let song = CatalogTestItems.row
    let source = CatalogSource(items: [
      song(1, "Swift River", "Taylor Ward", 90), song(2, "Taylor Swift Tribute", "Others", 10),
    ])
    #expect(try await search("taylor sw", source: source).map(\.id) == [2, 1])
    #expect(try await search("swift tay", source: source).map(\.id) == [1, 2])
  }

  @Test func shortWordsNeedAnExactPrefix() async throws {
    let source = CatalogSource(items: [CatalogTestItems.row(1, "Cat Power", "Feline", 1)])
    #expect(try await search("cat", source: source).count == 1)
    #expect(try await search("cot", source: source).isEmpty)
    #expect(try await search("at", source: source).isEmpty)
  }

  @Test func anItemWhoseWordsShareAPrefixIsAnsweredOnce() async throws {
    // "lo" starts "Love" and "Lover": two posting lists hold the item. When the merge was down
    // to one list it skipped its duplicate check and answered the item twice.
    let source = CatalogSource(items: [CatalogTestItems.row(1, "My Love Lover", "Someone", 1)])
    #expect(try await search("lo", source: source).map(\.id) == [1])
  }
}

extension CatalogTestItems {
  /// A song without argument labels, for compact tables: id, title, artist, popularity.
  static func row(_ id: Int, _ title: String, _ artist: String, _ popularity: Int) -> SearchItem {
    song(id, title, artist: artist, popularity: popularity)
  }
}
