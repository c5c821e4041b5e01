// The interactive screen while another process's requests hold the shared rate budget: the status
// line says the search waits for the budget, and for how long at most, not just "searching…".
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct InteractiveBudgetTests {
  @Test func aSearchHeldByAnotherProcesssRequestShowsItWaitsForTheBudget() async throws {
    // The other process's request stays in flight until the screen has said it waits (or the
    // screen's own request arrives, as it would if the budget let it through): neither the gate's
    // bound nor the other's --timeout ends the hold first, however long the screen takes to start.
    let gate = AnswerGate(bound: .seconds(600))
    defer { gate.open() }
    let server = LoopbackHTTPServer { request in
      let term = request.value(of: "term") ?? ""
      if term == "queen" { gate.pass() } else { gate.open() }
      return .json(#"{"resultCount":1,"results":[{"trackId":1,"kind":"song","trackName":\#(jsonString(term))}]}"#)
    }
    try server.start()
    defer { server.stop() }
    let directory = NSTemporaryDirectory() + "stream-search-interactive-budget-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = directory + ".log"
    let options = [
      "--source", server.url("/search").absoluteString, "--categories", "music", "--retries", "0",
      "--cache-dir", directory, "--rate-limit", "1/30s",
    ]
    let other = try RunningProcess(
      try toolBinary(), arguments: options + ["--lines", "--format", "jsonl", "--debounce", "0ms", "--timeout", "1h"])
    other.write("queen\n")
    other.closeInput()
    _ = await server.waitForRequests(count: 1)

    let process = try TerminalProcess(
      try toolBinary(), arguments: options + ["--debounce", "50ms", "--log", log],
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
    let diagnostics = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(waiting != nil, "the status line shows the wait for the budget; it shows: \(status)\n\(diagnostics)")
    #expect(status.contains("waiting up to"), "\(status)")
    #expect(server.requests.count == 1, "the search is still held")
    gate.open()
    process.type([0x1B])
    #expect(await process.waitForExit() != nil)
    #expect(await other.waitForExit() == 0)
  }
}
