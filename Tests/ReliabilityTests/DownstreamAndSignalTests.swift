// A busy run that ends early: the reader of stdout goes away (`| head -5`), or SIGINT arrives.
// The tool ends cleanly with the documented status: 0 and 130.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct DownstreamAndSignalTests {
  /// 40 sessions typing 20 terms each, 400 ms apart, in a recording file.
  static func busyRecording() throws -> URL {
    var keys: [RecordedKey] = []
    for round in 0..<20 {
      for session in 0..<40 {
        keys.append(RecordedKey(Int64(round * 400), "t\(round)-\(session % 7)", session: "u\(session)"))
      }
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("busy-\(UUID()).jsonl")
    try recording(keys).write(to: file)
    return file
  }

  static func delayed(_ delay: Duration) -> LoopbackHTTPServer.Handler {
    { request in Reply(body: answerBody(for: request.value(of: "term") ?? ""), fault: .delay(delay)) }
  }

  @Test func headFiveEndsTheBusyReplayWithStatusZeroAndNoComplaint() async throws {
    let file = try Self.busyRecording()
    defer { try? FileManager.default.removeItem(at: file) }
    try await withStandIn(Self.delayed(.milliseconds(20))) { server in
      // SIGPIPE back to its default, as in a shell, so the tool must ignore it itself.
      let script = #""$@" | head -5; echo "status ${PIPESTATUS[0]}" >&2"#
      let result = try await Subprocess.run(
        URL(fileURLWithPath: "/bin/bash"),
        arguments: [
          "-c", script, "bash", "/usr/bin/env", "--default-signal=PIPE", try toolBinary().path, "--replay",
          "--input", file.path, "--source", server.url("/search").absoluteString, "--format", "jsonl",
          "--categories", "music", "--retries", "0",
        ])
      #expect(result.stderr == "status 0\n")
      let events = try toolEvents(result.stdout)
      #expect(events.count == 5)
      #expect(events.map { $0.seq } == [1, 2, 3, 4, 5])
      #expect(await server.waitForOpenConnections(atMost: 0) == 0)
    }
  }

  @Test func sigintInTheMiddleOfABusyLiveRunCancelsWhatIsInFlightAndExits130() async throws {
    // The server never answers, and the timeout is an hour away: however long this process is
    // starved on a loaded machine, nothing but the SIGINT can end a search.
    try await withStandIn({ _ in .fault(.noAnswer) }) { server in
      let tool = try RunningProcess(
        try toolBinary(),
        arguments: [
          "--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music,movies",
          "--retries", "0", "--debounce", "50ms", "--timeout", "1h",
        ])
      // 30 sessions each settle a term at once: 30 searches of 2 requests each, which the
      // server holds for ever; the signal comes once all 30 searches have started and requests
      // arrive.
      tool.write((0..<30).map { #"{"term":"busy\#($0)","session":"s\#($0)"}"# + "\n" }.joined())
      for index in 0..<30 { await tool.waitForLine(containing: #""term":"busy\#(index)""#) }
      _ = await server.waitForRequests(count: 2)
      tool.send(SIGINT)
      #expect(await tool.waitForExit() == 130)
      let events = try toolEvents(tool.lines.joined(separator: "\n"))
      #expect(events.map { $0.seq } == Array(1...events.count))
      #expect(events.filter { $0.type == "search" }.count == 30)
      #expect(events.filter { $0.type == "cancelled" }.allSatisfy { $0.reason == "shutdown" })
      #expect(
        events.filter { $0.type == "cancelled" }.count == 30,
        "other ends: \(events.filter { $0.type == "results" || $0.type == "error" }.map(\.brief))")
      #expect(sessionsWithUnpairedSearches(events).isEmpty)
      #expect(events.last?.type == "summary")
      #expect(await server.waitForOpenConnections(atMost: 0) == 0)
    }
  }

  @Test func sigintDuringABusyReplayEndsEverySearchOnceAndExits130() async throws {
    try await withStandIn(Self.delayed(.milliseconds(20))) { server in
      let tool = try RunningProcess(
        try toolBinary(),
        arguments: [
          "--replay", "--source", server.url("/search").absoluteString, "--format", "jsonl",
          "--categories", "music", "--retries", "0",
        ])
      // The input stays open: the replay has handled each line written so far, then waits.
      let file = try Self.busyRecording()
      defer { try? FileManager.default.removeItem(at: file) }
      await tool.write(try Data(contentsOf: file))
      await tool.waitForLine(containing: #""type":"results""#)
      tool.send(SIGINT)
      // The replay checks for a signal between lines: one more line lets it act.
      tool.write(RecordedKey(600_000, "", session: "late").jsonLine + "\n")
      #expect(await tool.waitForExit() == 130)
      let events = try toolEvents(tool.lines.joined(separator: "\n"))
      #expect(events.map { $0.seq } == Array(1...events.count))
      #expect(!events.filter { $0.type == "search" }.isEmpty)
      #expect(sessionsWithUnpairedSearches(events).isEmpty)
      #expect(events.last?.type == "summary")
    }
  }
}
