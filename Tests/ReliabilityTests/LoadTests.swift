// Load through the built binary in replay mode: 200 sessions × 50 searches against a server that
// takes 20 ms per answer. Nothing lost or duplicated, every connection closed, memory bounded.
import Foundation
import Pipeline
import StreamsTesting
import TestSupport
import Testing

// The limit catches a hang only: 10,000 answers of 20 ms each, 20 at a time, take 10 s of real
// time at the least, and several times that on a machine busy with other work; no verdict here
// depends on how long they take.
@Suite(.timeLimit(.minutes(10))) struct LoadTests {
  static let sessions = 200
  static let searchesPerSession = 50

  /// Session s types term k at k × 400 ms (+ 7 ms × (s mod 10)), a whole term per keystroke,
  /// never the same term twice in a row, from a vocabulary of 500: each keystroke settles into
  /// a search 300 ms later, and 20 sessions search at once. A clear in session "end" at 60 s
  /// closes the recording.
  static func recordingLines() -> (keys: [RecordedKey], searches: Int) {
    var random = SplitMix64(seed: 2026)
    var keys: [RecordedKey] = []
    var previous = [String?](repeating: nil, count: sessions)
    for round in 0..<searchesPerSession {
      for offset in 0..<10 {
        for session in stride(from: offset, to: sessions, by: 10) {
          var term: String
          repeat { term = "w\(Int.random(in: 0..<500, using: &random))" } while term == previous[session]
          previous[session] = term
          keys.append(RecordedKey(Int64(round * 400 + offset * 7), term, session: "u\(session)"))
        }
      }
    }
    keys.append(RecordedKey(60_000, "", session: "end"))
    return (keys, sessions * searchesPerSession)
  }

  /// VmHWM (peak resident memory) of process `pid`, in kB.
  static func peakResidentKilobytes(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
    return try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
  func everySearchEndsOnceNothingIsLostConnectionsCloseAndMemoryStaysBounded() async throws {
    let (keys, expectedSearches) = Self.recordingLines()
    let delayed: LoopbackHTTPServer.Handler = { request in
      Reply(body: answerBody(for: request.value(of: "term") ?? "", count: 5), fault: .delay(.milliseconds(20)))
    }
    try await withStandIn(delayed) { server in
      let tool = try RunningProcess(
        try toolBinary(),
        arguments: [
          "--replay", "--source", server.url("/search").absoluteString, "--format", "jsonl",
          "--categories", "music", "--retries", "0",
        ])
      await tool.write(recording(keys))
      // The replay has handled every line once the last one's event is out; it now waits for
      // more input, so its peak memory can be read while it is still alive.
      await tool.waitForLine(containing: #""session":"end""#)
      let peakKilobytes = try Self.peakResidentKilobytes(of: tool.processIdentifier)
      tool.closeInput()
      #expect(await tool.waitForExit() == 0)
      #expect(peakKilobytes < 300 * 1024, "peak resident memory \(peakKilobytes) kB")

      let events = try toolEvents(tool.lines.joined(separator: "\n"))
      #expect(events.map { $0.seq } == Array(1...events.count), "seq has gaps or repeats")
      let searches = events.filter { $0.type == "search" }
      #expect(searches.count == expectedSearches)
      #expect(events.filter { $0.isTerminal }.count == expectedSearches)
      // Per session: search, its one terminal event, the next search, …
      let typed = events.filter { $0.session?.hasPrefix("u") == true }
      for (session, sessionEvents) in Dictionary(grouping: typed, by: \.session) {
        let flow = sessionEvents.filter { $0.type == "search" || $0.isTerminal }
        let paired = stride(from: 0, to: flow.count, by: 2).allSatisfy { index in
          index + 1 < flow.count && flow[index].type == "search" && flow[index + 1].isTerminal
            && flow[index + 1].term == flow[index].term
        }
        #expect(paired && flow.count == 2 * Self.searchesPerSession, "session \(session ?? "")")
      }
      let summary = try #require(events.last)
      #expect(summary.type == "summary")
      #expect(summary.counts["searches"] == expectedSearches)
      #expect(summary.counts["requests"] == server.requests.count)
      #expect(summary.counts["input_lines"] == keys.count)
      #expect(await server.waitForOpenConnections(atMost: 0) == 0)
    }
  }
}
