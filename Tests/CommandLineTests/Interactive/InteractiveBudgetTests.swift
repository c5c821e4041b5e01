// The interactive screen while another process's requests hold the shared rate budget: the status
// line says the search waits for the budget, and for how long at most, not just "searching…".
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct InteractiveBudgetTests {
  @Test func aSearchHeldByAnotherProcesssRequestsShowsItWaitsForTheBudget() async throws {
    let server = LoopbackHTTPServer { request in
      let term = request.value(of: "term") ?? ""
      return .json(#"{"resultCount":1,"results":[{"trackId":1,"kind":"song","trackName":\#(jsonString(term))}]}"#)
    }
    try server.start()
    defer { server.stop() }
    let directory = NSTemporaryDirectory() + "stream-search-interactive-budget-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let options = [
      "--source", server.url("/search").absoluteString, "--categories", "music", "--retries", "0",
      "--cache-dir", directory, "--rate-limit", "1/30s",
    ]
    // Another process spends the budget: one request, held for 30 s after its answer.
    let first = try await Subprocess.run(
      try toolBinary(), arguments: options + ["--lines", "--format", "jsonl", "--debounce", "0ms"],
      input: Data("queen\n".utf8))
    #expect(first.status == 0, "\(first.stderr)")
    #expect(server.requests.count == 1)

    let process = try TerminalProcess(
      try toolBinary(), arguments: options + ["--debounce", "50ms"],
      environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"])
    defer { process.close() }
    let ready = await process.wait { VirtualScreen($0.terminal).line(1).contains("Type to search") }
    #expect(ready != nil, "the field appears")
    process.type("abba")
    let waiting = await process.wait { snapshot in
      let status = VirtualScreen(snapshot.terminal).line(1)
      return status.contains("\"abba\"") && status.contains("for the rate budget")
    }
    let status = VirtualScreen(process.snapshot.terminal).line(1)
    #expect(waiting != nil, "the status line shows the wait for the budget; it shows: \(status)")
    #expect(status.contains("waiting up to"), "\(status)")
    #expect(server.requests.count == 1, "the search is still held")
    process.type([0x1B])
    #expect(await process.waitForExit() != nil)
  }
}
