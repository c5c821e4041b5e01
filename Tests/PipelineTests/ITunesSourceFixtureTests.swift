// iTunes answers served over loopback HTTP (the project's own, and the real shared ones when
// present): they decode through ITunesSource, and a media=all answer splits into categories in
// single-request mode.
import Foundation
import ITunes
import Pipeline
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ITunesSourceFixtureTests {
  static let files = SharedFixtures.projectITunesFiles() + SharedFixtures.itunesFiles()

  private static func fixture(_ name: String) throws -> URL {
    try #require(
      SharedFixtures.projectITunesFiles().first { $0.lastPathComponent == name }, "missing fixture \(name)")
  }

  private static func decodedIds(_ file: URL) throws -> [Int] {
    try JSONDecoder().decode(ITunesResponse.self, from: Data(contentsOf: file)).results.map(\.id)
  }

  @Test(.enabled(if: !files.isEmpty), arguments: files)
  func fixtureServedOverHTTPDecodesLikeTheFile(file: URL) async throws {
    let expected = try JSONDecoder().decode(ITunesResponse.self, from: Data(contentsOf: file)).results
    let routes = [FixtureKey(term: "fixture", media: "music"): file]
    let items = try await withITunesServer(try FixtureRoutes.handler(routes)) { _, source in
      try await source.search(musicRequest("fixture", limit: 200))
    }
    #expect(items == Array(expected.prefix(200)))
  }

  @Test func fixtureRoutesAnswerByTermAndMedia() async throws {
    let songs = try Self.fixture("music-harbor-limit3.json")
    let movies = try Self.fixture("movie-harbor-limit2.json")
    let routes = [FixtureKey(term: "abba", media: "music"): songs, FixtureKey(term: "star", media: "movie"): movies]
    try await withITunesServer(try FixtureRoutes.handler(routes)) { _, source in
      let abba = try await source.search(musicRequest("abba"))
      let star = try await source.search(SearchRequest(term: "star", category: .movies, country: "AU"))
      let unknown = try await source.search(SearchRequest(term: "star", category: .music))
      #expect(abba.map(\.id) == (try Self.decodedIds(songs)))
      #expect(star.map(\.id) == (try Self.decodedIds(movies)))
      #expect(unknown.isEmpty)
    }
  }

  @Test func singleRequestModeSplitsAMediaAllAnswerIntoCategories() async throws {
    let file = try Self.fixture("all-harbor-mixed.json")
    let all = try JSONDecoder().decode(ITunesResponse.self, from: Data(contentsOf: file)).results
    let routes = [FixtureKey(term: "jack johnson", media: "all"): file]
    // Two of each: the answer holds three songs, two movies and a podcast, so the limit is felt.
    let limit = 2
    let (grouped, request) = try await withITunesServer(try FixtureRoutes.handler(routes)) { server, source in
      let grouped = try await source.search(
        SearchRequest(term: "jack johnson", category: .music, limit: limit),
        categories: [.music, .movies, .podcasts]
      )
      return (grouped, try #require(server.requests.first))
    }
    #expect(server(request, askedFor: "all", limit: limit * 3))
    #expect(Set(grouped.keys) == [.music, .movies, .podcasts])
    for category in [Category.music, .movies, .podcasts] {
      let expected = all.filter { Category(kind: $0.kind, wrapperType: $0.wrapperType) == category }.prefix(limit)
      #expect(grouped[category] == Array(expected), "\(category)")
    }
    #expect(grouped[.music]?.isEmpty == false)
    #expect(grouped[.movies]?.isEmpty == false)
    #expect(grouped[.music]?.count == 2 && grouped[.podcasts]?.count == 1)
  }

  @Test func singleRequestModeWithNoCategoriesSendsNothing() async throws {
    try await withITunesServer({ _ in .json(FixtureRoutes.emptyAnswer) }) { server, source in
      let grouped = try await source.search(musicRequest(), categories: [])
      #expect(grouped.isEmpty)
      #expect(server.requests.isEmpty)
    }
  }

  /// Whether `request` asked for `media` with no entity and the given limit.
  private func server(_ request: ReceivedRequest, askedFor media: String, limit: Int) -> Bool {
    request.value(of: "media") == media && request.value(of: "entity") == nil
      && request.value(of: "limit") == String(limit)
  }
}
