// Rate limiting end to end: a 403 is rateLimited and never cached, and --rate-limit keeps the
// requests that reach the server within the configured rate.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct RateLimitTests {
  @Test func a403IsRateLimitedAndNeverCachedSoTheSameTermAsksAgain() async throws {
    let script = ReplyScript(["abba": [.fault(.emptyBody403), .json(answerBody(for: "abba"))]])
    let keys = [
      RecordedKey(0, "abba"), RecordedKey(1_000, ""), RecordedKey(2_000, "abba"), RecordedKey(3_000, ""),
      RecordedKey(4_000, "abba"),
    ]
    try await withStandIn(script.handler) { server in
      let events = try await replayAgainst(server, recording(keys))
      #expect(
        events.map { $0.brief } == [
          "search abba", "error abba rateLimited", "cleared", "search abba", "results abba load", "cleared",
          "search abba", "results abba cache", "summary",
        ])
      // The failure was not cached: the second search asked again; the success was: the third did not.
      #expect(requestedTerms(server) == ["abba", "abba"])
      #expect(events.last?.counts["requests"] == 2)
    }
  }

  @Test func replayedRateLimitLetsThreeThroughPerWindowAndQueuesTheRest() async throws {
    // Seven sessions each settle a different term at 300 ms; 3 per 2 s lets 3 go at 300, 3 at
    // 2300 and the last at 4300 (virtual time: the limiter's waits pass without real waiting).
    // A clear in another session at 10 s keeps the input open so that the terms settle by time.
    let keys =
      (1...7).map { RecordedKey(0, "term\($0)", session: "s\($0)") }
      + [RecordedKey(10_000, "", session: "end")]
    try await withStandIn({ request in .json(answerBody(for: request.value(of: "term") ?? "")) }) { server in
      let events = try await replayAgainst(
        server, recording(keys), arguments: ["--categories", "music", "--retries", "0", "--rate-limit", "3/2s"])
      let results = events.filter { $0.type == "results" }
      #expect(results.map { $0.atMilliseconds }.sorted() == [300, 300, 300, 2_300, 2_300, 2_300, 4_300])
      #expect(events.filter { $0.type == "search" }.allSatisfy { $0.atMilliseconds == 300 })
      // Every queued request was eventually made, each once.
      #expect(requestedTerms(server).sorted() == (1...7).map { "term\($0)" })
      #expect(events.last?.counts["requests"] == 7)
    }
  }

  @Test func liveRateLimitLetsNoMoreThanThreeRequestsReachTheServerInTheFirstWindow() async throws {
    // Real time, so the server's own arrival instants are what is checked. Five sessions settle
    // at once (at the end of the input); 3 per 1 s must hold the last two back until a second
    // after the first permit. No permit can be granted before the tool started, so no request
    // beyond the first three can be granted, nor arrive, before `started + 1 s`: an exact bound,
    // whatever the time each request takes to travel to the server.
    let lines = (1...5).map { #"{"term":"live\#($0)","session":"s\#($0)"}"# + "\n" }.joined()
    try await withStandIn({ request in .json(answerBody(for: request.value(of: "term") ?? "")) }) { server in
      let started = ContinuousClock.now
      let result = try await Subprocess.run(
        try toolBinary(),
        arguments: [
          "--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music",
          "--retries", "0", "--debounce", "50ms", "--rate-limit", "3/1s",
        ],
        input: Data(lines.utf8))
      #expect(result.status == 0)
      let arrivals = server.requests.map { $0.arrivedAt }.sorted()
      let firstWindowEnds = started + .seconds(1)
      #expect(arrivals.count == 5)
      #expect(arrivals.filter { $0 < firstWindowEnds }.count <= 3)
      #expect(arrivals.dropFirst(3).allSatisfy { $0 >= firstWindowEnds })
      let events = try toolEvents(result.stdout)
      #expect(events.filter { $0.type == "results" }.count == 5)
    }
  }
}
