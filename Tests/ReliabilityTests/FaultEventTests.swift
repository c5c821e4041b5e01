// Each fault of the stand-in server, through the built tool in replay: the documented event with the
// right kind, the run goes on, and the next search succeeds.
import Foundation
import TestSupport
import Testing

/// A fault the server injects for the term "boom", and the error kind the tool must report.
struct FaultCase: Sendable, CustomTestStringConvertible {
  var name: String
  var reply: Reply
  var kind: String
  /// Extra options (a shorter timeout for silence).
  var arguments: [String] = []

  var testDescription: String { name }

  static let body = answerBody(for: "boom", count: 3)

  static let all: [FaultCase] = [
    FaultCase(name: "403 with an empty body", reply: .fault(.emptyBody403), kind: "rateLimited"),
    FaultCase(name: "429", reply: .status(429), kind: "rateLimited"),
    FaultCase(name: "500", reply: .status(500), kind: "server"),
    FaultCase(name: "503", reply: .status(503), kind: "server"),
    FaultCase(name: "418", reply: .status(418), kind: "badStatus"),
    FaultCase(name: "HTML page with status 200", reply: .fault(.htmlPage), kind: "decoding"),
    FaultCase(name: "malformed JSON", reply: .fault(.malformedJSON), kind: "decoding"),
    FaultCase(name: "truncated body", reply: Reply(body: body, fault: .truncatedBody), kind: "offline"),
    FaultCase(name: "connection reset", reply: Reply(body: body, fault: .connectionReset), kind: "offline"),
    FaultCase(name: "oversized body (9 MiB > 8 MiB cap)", reply: .fault(.oversized(bytes: 9 << 20)), kind: "decoding"),
    // The one case that waits in real time: the request's own timeout (whole seconds on Linux).
    FaultCase(name: "no answer", reply: .fault(.noAnswer), kind: "timedOut", arguments: ["--timeout", "1s"]),
  ]
}

@Suite(.timeLimit(.minutes(10))) struct FaultEventTests {
  /// boom at 0 (settles at 300), a clear at 1000, good at 2000.
  static let session = recording([RecordedKey(0, "boom"), RecordedKey(1_000, ""), RecordedKey(2_000, "good")])

  static func handler(boom: Reply) -> LoopbackHTTPServer.Handler {
    { request in
      let term = request.value(of: "term") ?? ""
      return term == "boom" ? boom : .json(answerBody(for: term))
    }
  }

  @Test(arguments: FaultCase.all)
  func faultGivesAnErrorOfItsKindAndTheNextSearchSucceeds(fault: FaultCase) async throws {
    try await withStandIn(Self.handler(boom: fault.reply)) { server in
      let events = try await replayAgainst(
        server, Self.session, arguments: ["--categories", "music", "--retries", "0"] + fault.arguments)
      #expect(
        events.map { $0.brief } == [
          "search boom", "error boom \(fault.kind)", "cleared", "search good", "results good load", "summary",
        ])
      let good = try #require(events.first { $0.type == "results" })
      #expect(good.categoryTitles == ["music": ["good 0"]])
      #expect(requestedTerms(server) == ["boom", "good"])
      let summary = try #require(events.last)
      #expect(summary.counts["errors"] == 1)
      #expect(summary.counts["results"] == 1)
    }
  }

  @Test(arguments: [
    ("a delay shorter than the timeout", Reply(body: FaultCase.body, fault: .delay(.milliseconds(200)))),
    (
      "a slow drip of 16 bytes every 10 ms",
      Reply(body: FaultCase.body, fault: .slowDrip(chunk: 16, every: .milliseconds(10)))
    ),
  ])
  func slowButCompleteAnswerGivesResults(name: String, reply: Reply) async throws {
    try await withStandIn(Self.handler(boom: reply)) { server in
      let events = try await replayAgainst(server, Self.session)
      #expect(
        events.map { $0.brief } == [
          "search boom", "results boom load", "cleared", "search good", "results good load", "summary",
        ])
      let boom = try #require(events.first { $0.type == "results" })
      #expect(boom.categoryTitles == ["music": ["boom 0", "boom 1", "boom 2"]])
    }
  }

  @Test func status404IsResultsWithNoItems() async throws {
    try await withStandIn(Self.handler(boom: .status(404))) { server in
      let events = try await replayAgainst(server, Self.session)
      #expect(events.map { $0.brief }.prefix(2) == ["search boom", "results boom load"])
      #expect(events[1].categoryTitles == ["music": []])
      #expect(events[1].categoryErrors == ["music": "ok"])
    }
  }

  @Test func oneFailingCategoryIsAnErrorInsideResultsAndTheOthersAnswer() async throws {
    let handler: LoopbackHTTPServer.Handler = { request in
      let term = request.value(of: "term") ?? ""
      if term == "boom" && request.value(of: "media") == "music" { return .status(503) }
      return .json(answerBody(for: term))
    }
    try await withStandIn(handler) { server in
      let events = try await replayAgainst(
        server, Self.session, arguments: ["--categories", "music,movies", "--retries", "0"])
      #expect(
        events.map { $0.brief } == [
          "search boom", "results boom load", "cleared", "search good", "results good load", "summary",
        ])
      let boom = events[1]
      #expect(boom.categoryErrors == ["music": "server", "movies": "ok"])
      #expect(boom.categoryTitles["movies"] == ["boom 0"])
      let good = events[4]
      #expect(good.categoryErrors == ["music": "ok", "movies": "ok"])
      #expect(server.requests.count == 4)
    }
  }
}
