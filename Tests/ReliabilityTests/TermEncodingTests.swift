// Term encoding end to end: awkward terms typed into the tool reach the server byte for byte.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct TermEncodingTests {
  static let terms = AwkwardTerms.all

  @Test func awkwardTermsReachTheServerExactlyAsTyped() async throws {
    let keys = Self.terms.enumerated().map { RecordedKey(Int64($0.offset) * 1_000, $0.element) }
    try await withStandIn({ request in .json(answerBody(for: request.value(of: "term") ?? "")) }) { server in
      let events = try await replayAgainst(server, recording(keys))
      let received = server.requests.compactMap { $0.value(of: "term") }
      // Compared as bytes: String's == treats canonically equivalent forms (NFC, NFD) as equal.
      #expect(received.map { Array($0.utf8) } == Self.terms.map { Array($0.utf8) })
      #expect(server.requests.allSatisfy { !$0.rawQuery.contains(" ") && $0.parameterNames.first == "term" })
      let searched = events.filter { $0.type == "search" }.compactMap { $0.term }
      #expect(searched.map { Array($0.utf8) } == Self.terms.map { Array($0.utf8) })
      let titles = events.filter { $0.type == "results" }.compactMap { $0.categoryTitles["music"]?.first }
      #expect(titles.map { Array($0.utf8) } == Self.terms.map { Array("\($0) 0".utf8) })
    }
  }

  @Test func canonicallyEquivalentSpellingsAreOneTermSentAsFirstTyped() async throws {
    // NFD then, after a clear, NFC: Swift's String equality (canonical equivalence) makes them
    // one cache key, so the second is a cache hit and the server sees only the first spelling.
    let keys = [RecordedKey(0, "Beyonce\u{301}"), RecordedKey(1_000, ""), RecordedKey(2_000, "Beyonc\u{E9}")]
    try await withStandIn({ request in .json(answerBody(for: request.value(of: "term") ?? "")) }) { server in
      let events = try await replayAgainst(server, recording(keys))
      #expect(
        events.map { $0.brief } == [
          "search Beyonce\u{301}", "results Beyonce\u{301} load", "cleared", "search Beyonc\u{E9}",
          "results Beyonc\u{E9} cache", "summary",
        ])
      #expect(
        events.filter { $0.type == "search" }.compactMap { $0.term.map { Array($0.utf8) } } == [
          Array("Beyonce\u{301}".utf8), Array("Beyonc\u{E9}".utf8),
        ])
      #expect(
        server.requests.compactMap { $0.value(of: "term").map { Array($0.utf8) } } == [
          Array("Beyonce\u{301}".utf8)
        ])
    }
  }

  @Test func plainTextLinesAreSentExactlyToo() async throws {
    // Live input, one plain line per term; the input ending settles the last term.
    for term in ["AC/DC & Queen+Bowie = 100% #1", "Beyonce\u{301}", "🎸 宇多田"] {
      try await withStandIn({ request in .json(answerBody(for: request.value(of: "term") ?? "")) }) { server in
        let result = try await Subprocess.run(
          try toolBinary(),
          arguments: ["--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music"],
          input: Data((term + "\n").utf8))
        #expect(result.status == 0)
        #expect(server.requests.compactMap { $0.value(of: "term") }.map { Array($0.utf8) } == [Array(term.utf8)])
      }
    }
  }
}
