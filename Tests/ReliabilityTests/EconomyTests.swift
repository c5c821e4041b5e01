// Economy: a fast typist's recording, replayed against the server, costs exactly one request per
// settled, distinct, uncached term and category; replaying it again in the same run costs none.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct EconomyTests {
  static let categories = ["--categories", "music,movies,podcasts", "--retries", "0"]
  static let media: Set<String> = ["music", "movie", "podcast"]

  static func echo() -> LoopbackHTTPServer.Handler {
    { request in .json(answerBody(for: request.value(of: "term") ?? "")) }
  }

  /// The server's requests grouped by case-folded term: the media each was asked for.
  static func mediaByTerm(_ server: LoopbackHTTPServer) -> [String: [String]] {
    Dictionary(grouping: server.requests) { ($0.value(of: "term") ?? "").lowercased() }
      .mapValues { $0.map { $0.value(of: "media") ?? "" } }
  }

  @Test(arguments: [UInt64(1), 2, 3])
  func aFastTypistCostsOneRequestPerSettledDistinctUncachedTermAndCategory(seed: UInt64) async throws {
    let keys = TypingSession.generate(seed: seed)
    let predicted = TypingSession.predictedSearches(keys)
    let distinctTerms = Set(predicted.map { $0.lowercased() })
    try await withStandIn(Self.echo()) { server in
      let events = try await replayAgainst(server, recording(keys), arguments: Self.categories)
      #expect(events.filter { $0.type == "search" }.map(\.term) == predicted)
      let perTerm = Self.mediaByTerm(server)
      #expect(Set(perTerm.keys) == distinctTerms)
      for (term, media) in perTerm {
        #expect(media.count == 3 && Set(media) == Self.media, "\(term): \(media)")
      }
      #expect(server.requests.count == distinctTerms.count * 3)
      #expect(events.last?.counts["requests"] == server.requests.count)
      // Every search ended in results (nothing was superseded: answers take no virtual time).
      #expect(events.filter { $0.type == "results" }.count == predicted.count)
    }
  }

  @Test(arguments: [UInt64(4), 5])
  func theSameRecordingASecondTimeInOneRunCostsNoRequests(seed: UInt64) async throws {
    let keys = TypingSession.generate(seed: seed)
    let shift = (keys.last?.at ?? 0) + 5_000
    let doubled = keys + keys.map { RecordedKey($0.at + shift, $0.text, session: $0.session) }
    let distinctTerms = Set(TypingSession.predictedSearches(keys).map { $0.lowercased() })
    let (events, requestCount) = try await withStandIn(Self.echo()) { server in
      (try await replayAgainst(server, recording(doubled), arguments: Self.categories), server.requests.count)
    }
    #expect(events.filter { $0.type == "search" }.map(\.term) == TypingSession.predictedSearches(doubled))
    #expect(requestCount == distinctTerms.count * 3)
    let secondCopy = events.filter { $0.type == "results" && Int64($0.atMilliseconds) >= shift }
    #expect(!secondCopy.isEmpty)
    #expect(secondCopy.allSatisfy { $0.source == "cache" })
  }
}
