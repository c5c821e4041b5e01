// Economy: a fast typist's recording, replayed against the server, costs exactly one request per
// settled, distinct, uncached term and category; replaying it again in the same run costs none.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct EconomyTests {
  static let categories = ["--categories", "music,movies,podcasts", "--retries", "0"]
  static let media: Set<String> = ["music", "movie", "podcast"]

  static func echo() -> LoopbackHTTPServer.Handler {
    { request in .json(answerBody(for: request.value(of: "term") ?? "")) }
  }

  @Test(arguments: [UInt64(1), 2, 3])
  func aFastTypistCostsOneRequestPerSettledDistinctUncachedTermAndCategory(seed: UInt64) async throws {
    let keys = TypingSession.generate(seed: seed)
    let predicted = TypingSession.predictedSearches(keys)
    let distinctTerms = Set(predicted.map { $0.lowercased() })
    // The recording exercises every rule: a prefix settled by a hesitation, a word abandoned by
    // a quick clear, a term searched again after a clear (so answered from the cache).
    let words = Set(TypingSession.words)
    #expect(predicted.contains { !words.contains($0) })
    #expect(zip(keys, keys.dropFirst()).contains { $1.text.isEmpty && !$0.text.isEmpty && $1.at - $0.at < 300 })
    #expect(predicted.count > distinctTerms.count)
    let (events, requests) = try await withStandIn(Self.echo()) { server in
      (try await replayAgainst(server, recording(keys), arguments: Self.categories), server.requests)
    }
    #expect(events.filter { $0.type == "search" }.map { $0.term } == predicted)
    let perTerm = Dictionary(grouping: requests) { ($0.value(of: "term") ?? "").lowercased() }
      .mapValues { $0.map { $0.value(of: "media") ?? "" } }
    #expect(Set(perTerm.keys) == distinctTerms)
    for (term, media) in perTerm {
      #expect(media.count == 3 && Set(media) == Self.media, "\(term): \(media)")
    }
    #expect(requests.count == distinctTerms.count * 3)
    #expect(events.last?.counts["requests"] == requests.count)
    // Every search ended in results (nothing was superseded: answers take no virtual time),
    // the repeated ones from the cache.
    let results = events.filter { $0.type == "results" }
    #expect(results.count == predicted.count)
    #expect(results.filter { $0.source == "cache" }.count == predicted.count - distinctTerms.count)
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
    #expect(events.filter { $0.type == "search" }.map { $0.term } == TypingSession.predictedSearches(doubled))
    #expect(requestCount == distinctTerms.count * 3)
    let secondCopy = events.filter { $0.type == "results" && Int64($0.atMilliseconds) >= shift }
    #expect(!secondCopy.isEmpty)
    #expect(secondCopy.allSatisfy { $0.source == "cache" })
  }
}
