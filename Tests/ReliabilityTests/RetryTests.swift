// Retries end to end: server errors and resets are tried again after a doubling backoff, never
// more than --retries allows; rate limiting is not retried.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct RetryTests {
  static let boom = recording([RecordedKey(0, "boom"), RecordedKey(5_000, ""), RecordedKey(6_000, "good")])
  static let retrying = ["--categories", "music", "--retries", "2", "--retry-backoff", "100ms"]
  static let body = answerBody(for: "boom")

  @Test(arguments: [
    ("503", Reply.status(503), "server"),
    ("connection reset", Reply(body: body, fault: .connectionReset), "offline"),
  ])
  func transientFailureIsTriedThreeTimesInAllThenReported(
    name: String, reply: Reply, kind: String
  ) async throws {
    try await withStandIn(ReplyScript(["boom": [reply]]).handler) { server in
      let events = try await replayAgainst(server, Self.boom, arguments: Self.retrying)
      #expect(
        events.map { $0.brief } == [
          "search boom", "error boom \(kind)", "cleared", "search good", "results good load", "summary",
        ])
      // Attempts at 300, 400 (after 100 ms) and 600 (after 200 ms more): the error at 600.
      #expect(events[1].atMilliseconds == 600)
      #expect(requestedTerms(server) == ["boom", "boom", "boom", "good"])
      #expect(events.last?.counts["requests"] == 4)
    }
  }

  @Test func aFailureThatClearsUpWithinTheRetriesGivesResults() async throws {
    let script = ReplyScript([
      "boom": [.status(503), Reply(body: Self.body, fault: .connectionReset), .json(Self.body)]
    ])
    try await withStandIn(script.handler) { server in
      let events = try await replayAgainst(server, Self.boom, arguments: Self.retrying)
      #expect(events.map { $0.brief }.prefix(2) == ["search boom", "results boom load"])
      #expect(events[1].atMilliseconds == 600)
      #expect(events[1].categoryTitles == ["music": ["boom 0"]])
      #expect(requestedTerms(server).filter { $0 == "boom" }.count == 3)
    }
  }

  @Test(arguments: [("403", Reply.fault(.emptyBody403)), ("429", Reply.status(429))])
  func rateLimitingIsNotRetried(name: String, reply: Reply) async throws {
    try await withStandIn(ReplyScript(["boom": [reply]]).handler) { server in
      let events = try await replayAgainst(server, Self.boom, arguments: Self.retrying)
      #expect(events.map { $0.brief }.prefix(2) == ["search boom", "error boom rateLimited"])
      #expect(events[1].atMilliseconds == 300)
      #expect(requestedTerms(server) == ["boom", "good"])
    }
  }

  @Test func noRetriesMeansOneAttempt() async throws {
    try await withStandIn(ReplyScript(["boom": [.status(503)]]).handler) { server in
      let events = try await replayAgainst(
        server, Self.boom, arguments: ["--categories", "music", "--retries", "0", "--retry-backoff", "100ms"])
      #expect(events.map { $0.brief }.prefix(2) == ["search boom", "error boom server"])
      #expect(requestedTerms(server) == ["boom", "good"])
    }
  }

  @Test func liveRetriesWaitTheBackoffInRealTimeBetweenAttempts() async throws {
    // Each attempt starts only after the previous one's answer arrived and the backoff passed,
    // so the server's arrival instants are at least 100 ms, then 200 ms, apart.
    try await withStandIn(ReplyScript(["boom": [.status(503)]]).handler) { server in
      let result = try await Subprocess.run(
        try toolBinary(),
        arguments: ["--source", server.url("/search").absoluteString, "--format", "jsonl", "--debounce", "50ms"]
          + Self.retrying,
        input: Data("boom\n".utf8))
      #expect(result.status == 0)
      let arrivals = server.requests.map { $0.arrivedAt }
      try #require(arrivals.count == 3)
      #expect(arrivals[1] - arrivals[0] >= .milliseconds(100))
      #expect(arrivals[2] - arrivals[1] >= .milliseconds(200))
      #expect(try toolEvents(result.stdout).map { $0.brief } == ["search boom", "error boom server", "summary"])
    }
  }
}
