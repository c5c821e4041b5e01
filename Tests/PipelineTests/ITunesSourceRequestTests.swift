// What ITunesSource sends: every term reaches the server byte for byte, with the expected parameters.
import Foundation
import ITunes
import Pipeline
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ITunesSourceRequestTests {
  static let awkwardTerms = AwkwardTerms.all

  @Test(arguments: awkwardTerms)
  func termReachesTheServerExactlyWithoutExtraParameters(term: String) async throws {
    let request = try await withITunesServer({ _ in .json(FixtureRoutes.emptyAnswer) }) { server, source in
      _ = try await source.search(musicRequest(term))
      return try #require(server.requests.first)
    }
    let received = try #require(request.value(of: "term"))
    // Compared as bytes: String's == treats canonically equivalent forms (NFC, NFD) as equal.
    #expect(Array(received.utf8) == Array(term.utf8))
    #expect(request.parameterNames == ["term", "media", "entity", "limit", "country"])
    #expect(!request.rawQuery.contains("+"))
    #expect(!request.rawQuery.contains(" "))
  }

  @Test func everyRequestParameterIsSent() async throws {
    let search = SearchRequest(
      term: "abba", category: .podcasts, limit: 7, country: "GB", language: "en_us", explicit: false
    )
    let request = try await withITunesServer({ _ in .json(FixtureRoutes.emptyAnswer) }) { server, source in
      _ = try await source.search(search)
      return try #require(server.requests.first)
    }
    #expect(request.path == "/search")
    #expect(
      request.parameters == [
        QueryParameter("term", "abba"), QueryParameter("media", "podcast"), QueryParameter("entity", "podcast"),
        QueryParameter("limit", "7"), QueryParameter("country", "GB"), QueryParameter("lang", "en_us"),
        QueryParameter("explicit", "No"),
      ])
  }

  @Test(arguments: [(0, "1"), (-5, "1"), (200, "200"), (500, "200")])
  func limitIsClampedToWhatITunesAccepts(limit: Int, sent: String) async throws {
    let request = try await withITunesServer({ _ in .json(FixtureRoutes.emptyAnswer) }) { server, source in
      _ = try await source.search(SearchRequest(term: "x", category: .music, limit: limit, explicit: true))
      return try #require(server.requests.first)
    }
    #expect(request.value(of: "limit") == sent)
    #expect(request.value(of: "explicit") == "Yes")
  }

  @Test func nameIsItunesForTheDefaultEndpointAndTheURLOtherwise() throws {
    #expect(ITunesSource().name == "itunes")
    let url = try #require(URL(string: "http://127.0.0.1:9/search"))
    #expect(ITunesSource(baseURL: url).name == "http://127.0.0.1:9/search")
  }
}
