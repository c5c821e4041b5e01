// A one-letter word next to an "and" ("M&M", "R&B", "b & b") is an initial: a word of its own as
// the name writes it, not the start of any word, so such a query no longer fills a category with
// names whose words merely start with its letters.
import Catalog
import Pipeline
import TestSupport
import Testing

@testable import Catalog

@Suite struct CatalogInitialsTests {
  static let builtIn = CatalogSource()

  private func search(_ term: String, in category: Category) async throws -> [SearchItem] {
    try await OwnThread.running {
      try await Self.builtIn.search(SearchRequest(term: term, category: category, limit: 25))
    }
  }

  @Test func anInitialIsAWordOfItsOwn() {
    let query = CatalogQuery("M&M")
    #expect(query.isInitial(0))
    #expect(!query.isInitial(1), "the \"and\" itself")
    #expect(!query.isInitial(2), "the last word may still be typed")
    #expect(CatalogQuery("b & b n").isInitial(2))
    #expect(!CatalogQuery("t swift").isInitial(0), "an initial before a name is not next to an \"and\"")
    #expect(!CatalogQuery("guns n roses").isInitial(1), "\"n\" is \"and\" itself")
    #expect(CatalogQuery("m&").isInitial(0))
    #expect(!CatalogQuery("a n").isInitial(0), "a last \"n\" may be on its way to \"night\"")
    #expect(query.word(0, starts: [0x6D]))
    #expect(!query.word(0, starts: Array("mark".unicodeScalars.map(\.value))))
  }

  @Test(arguments: [("M&M", Category.music, "Uptown Funk"), ("r&b", .movies, "Rust and Bone")])
  func namesWhoseWordsOnlyStartWithTheLettersAreNotAnswered(term: String, category: Category, notFound: String)
    async throws
  {
    let answer = try await search(term, in: category)
    #expect(!answer.contains { $0.title == notFound }, "\(answer.prefix(5).map { $0.title ?? "" })")
    for item in answer where item.match?.quality != .partial {
      let words = Set(
        [item.trackName, item.collectionName, item.artistName].compactMap { $0 }.flatMap {
          TextFolding.literalWords($0).words
        })
      #expect(words.contains([CatalogQuery(term).words[0][0]]), "\(item.title ?? ""): the initial is a word of it")
    }
  }

  @Test func anInitialBeforeANameStillStartsIt() async throws {
    #expect(try await search("t swift", in: .music).first?.artistName == "Taylor Swift")
  }
}
