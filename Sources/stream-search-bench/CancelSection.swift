// The "cancel" section: cancel-previous over a real connection (the target: the server sees the
// superseded request's connection closed within 100 ms). The release binary runs live against a loopback
// server that never answers terms starting with "stall"; each cycle types a stalled term, waits
// for its request, types a newer term, and measures from the newer request's arrival to the
// server seeing the stalled request's connection closed. Negative: closed before the newer
// request arrived (the tool cancels as the newer search starts, before it sends).
import Foundation
import TestSupport

/// Measures the "cancel" section.
struct CancelSection {
  /// Cycles measured, after ``warmUpCycles`` not measured, all in one process.
  static let cycles = 30
  static let warmUpCycles = 3

  func measure(into table: inout ResultTable) async throws {
    guard let binary = BinarySection.binary(for: "11 cancel", into: &table) else { return }
    let name = "newer request's arrival → superseded connection closed, \(Self.cycles) cycles"
    let server = LoopbackHTTPServer { request in
      (request.value(of: "term") ?? "").hasPrefix("stall") ? .fault(.noAnswer) : .json(FixtureRoutes.emptyAnswer)
    }
    try server.start()
    defer { server.stop() }
    let tool = try RunningProcess(
      URL(fileURLWithPath: binary),
      arguments: [
        "--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music",
        "--retries", "0", "--debounce", "50ms", "--timeout", "60s",
      ])
    var lags: [Double] = []
    for cycle in 0..<(Self.warmUpCycles + Self.cycles) {
      let stalled = server.requests.count
      tool.write("stall\(cycle)\n")
      _ = await server.waitForRequests(count: stalled + 1)
      tool.write("newer\(cycle)\n")
      let log = await server.waitForRequests(count: stalled + 2)
      guard log.count >= stalled + 2, let closedAt = await server.waitForEarlyClose(ofRequest: stalled) else {
        table.append(
          ResultRow(
            section: "11 cancel", name: name, unit: "", sample: nil,
            note: "failed: cycle \(cycle) saw no request or no close"))
        tool.closeInput()
        return
      }
      await tool.waitForLine(containing: "\"newer\(cycle)\"")
      if cycle >= Self.warmUpCycles {
        lags.append(nanoseconds(log[stalled + 1].arrivedAt.duration(to: closedAt)) / 1e6)
      }
    }
    tool.closeInput()
    let status = await tool.waitForExit()
    table.append(
      ResultRow(
        section: "11 cancel", name: name, unit: "ms", sample: Sample(lags), target: "≤ 100",
        note: "stream-search live against a loopback server, --debounce 50ms; exit status \(status)"))
  }
}
