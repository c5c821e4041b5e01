// Cancel-previous over a real connection: when a newer term settles, the superseded request's
// connection is closed, seen by the server, instead of staying open until the stalled answer or
// the 60 s timeout. How soon (issue 5's 100 ms) is a speed target: the benchmark's section 11
// measures it; a timed test on a loaded machine measures the machine.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct CancelPreviousTests {
  @Test(arguments: [
    ("no answer", Reply.fault(.noAnswer)),
    ("a 60 s delay", Reply(body: answerBody(for: "alpha"), fault: .delay(.seconds(60)))),
  ])
  func aNewerTermClosesTheSupersededRequestsConnection(name: String, stall: Reply) async throws {
    try await withStandIn(ReplyScript(["alpha": [stall]]).handler) { server in
      let tool = try RunningProcess(
        try toolBinary(),
        arguments: [
          "--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music",
          "--retries", "0", "--debounce", "50ms", "--timeout", "60s",
        ])
      tool.write("alpha\n")
      _ = await server.waitForRequests(count: 1)
      tool.write("beta\n")
      let log = await server.waitForRequests(count: 2)
      let closedAt = try #require(await server.waitForEarlyClose(ofRequest: 0), "alpha was never closed")
      #expect(log.map { $0.value(of: "term") } == ["alpha", "beta"])
      // One-sided: closing before the newer request arrives is the best case (the tool cancels
      // as the newer search starts, before its request is even sent). A tool that did not abort
      // would close only at the stall's end or the timeout, 60 s later; 10 s tells them apart on
      // any machine (CI saw 101 and 110 ms against a 100 ms bound on the loaded 2-core machine).
      let lag = closedAt - log[1].arrivedAt
      #expect(lag < .seconds(10), "closed \(lag) after the newer request's arrival")
      await tool.waitForLine(containing: #""type":"results""#)
      tool.closeInput()
      #expect(await tool.waitForExit() == 0)
      let events = try toolEvents(tool.lines.joined(separator: "\n"))
      #expect(
        events.map { $0.brief } == [
          "search alpha", "cancelled alpha superseded", "search beta", "results beta load", "summary",
        ])
      #expect(events.last?.counts["cancellations"] == 1)
      #expect(server.requests.count == 2)
    }
  }
}
