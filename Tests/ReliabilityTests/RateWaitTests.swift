// Issue 10, defects 1 and 2: waiting for the rate budget is reported (a `waiting` event) and
// never timed out, and a deadline that passes during a retry's backoff reports the last failure.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct RateWaitTests {
  /// Eight words in three seconds, each settling 300 ms after it is typed.
  static let eightWords = recording((0..<8).map { RecordedKey(Int64($0) * 375, "word\($0 + 1)") })

  @Test func theTwentyFirstRequestWaitsForItsPermitIsToldSoAndIsNeverTimedOut() async throws {
    let handler: LoopbackHTTPServer.Handler = { request in .json(answerBody(for: request.value(of: "term") ?? "")) }
    try await withStandIn(handler) { server in
      let events = try await replayAgainst(
        server, Self.eightWords, arguments: ["--rate-limit", "20/min", "--timeout", "10s", "--retries", "0"])
      // Six searches take 18 permits; word7 (at 2,550 ms) takes the last two, and its podcasts
      // must wait for the permits granted at 300 ms to free at 60,300 ms. word8 settles at the
      // end of the input (2,625 ms), supersedes word7 and waits likewise; it is sent, and
      // answered, at 60,300 ms.
      let answered = (1...6).flatMap { ["search word\($0)", "results word\($0) load"] }
      #expect(
        events.map(\.brief) == answered + [
          "search word7", "waiting word7 podcasts 57750", "cancelled word7 superseded", "search word8",
          "waiting word8 music 57675", "waiting word8 movies 57675", "waiting word8 podcasts 57675",
          "results word8 load", "summary",
        ])
      #expect(events.first { $0.type == "waiting" }?.atMilliseconds == 2_550)
      #expect(events.first { $0.brief == "results word8 load" }?.atMilliseconds == 60_300)
      #expect(events.allSatisfy { $0.categoryErrors.values.allSatisfy { $0 == "ok" } })
      // word7's podcasts was never sent: 6 × 3 + 2 + 3.
      #expect(server.requests.count == 23)
      #expect(events.last?.counts["requests"] == 23)
    }
  }

  @Test func aDeadlineDuringBackoffReportsTheServersFailureNotATimeout() async throws {
    // The only key settles at the end of the input, at 0 ms. Attempts at 0 and 1,000 ms both get
    // 500; the next backoff (2 s) would end at 3,000 ms, after the deadline (2,500), so the 500
    // is reported at once, at 1,000 ms.
    let input = recording([RecordedKey(0, "err500a")])
    try await withStandIn({ _ in .status(500) }) { server in
      let events = try await replayAgainst(
        server, input,
        arguments: ["--categories", "music", "--timeout", "2500ms", "--retries", "2", "--retry-backoff", "1s"])
      #expect(events.map(\.brief) == ["search err500a", "error err500a server", "summary"])
      #expect(events[1].atMilliseconds == 1_000)
      #expect(server.requests.count == 2)
    }
  }

  @Test func liveARetriedServerErrorIsReportedAsTheServersWithinTheTimeout() async throws {
    // The issue's command: a server that answers 500 at once, `--timeout 3s`, live.
    try await withStandIn({ _ in .status(500) }) { server in
      let tool = try RunningProcess(
        try toolBinary(),
        arguments: [
          "--source", server.url("/search").absoluteString, "--categories", "music", "--timeout", "3s",
          "--format", "jsonl", "--debounce", "50ms",
        ])
      tool.write("err500a\n")
      await tool.waitForLine(containing: #""type":"error""#)
      tool.closeInput()
      #expect(await tool.waitForExit() == 0)
      let events = try toolEvents(tool.lines.joined(separator: "\n"))
      #expect(events.map(\.brief) == ["search err500a", "error err500a server", "summary"])
      // Attempts at once and after 1 s; the 2 s backoff would pass the deadline.
      #expect(server.requests.count == 2)
    }
  }
}
