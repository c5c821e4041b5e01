// The "scaleout" section's (c): what a worker keeps per session it holds, above its catalog.
import Foundation
import RESP
import ScaleOut
import TestSupport

extension ScaleOutSection {
  /// Sessions added in each step of (c), one keystroke each.
  static let memorySessions = 20_000
  /// The steps of (c): the first two grow the heap by what answering needs for a while, the
  /// last two are measured.
  static let memorySteps = 4
  static let memoryWarmUpSteps = 2

  /// (c): the worker's resident memory after two batches of sessions and after two more of the
  /// same size, each answered and held (idle timeout 10 min): the growth over the last two is
  /// what the sessions keep, apart from what answering them needed for a while (events waiting for
  /// their commit, replies), which the first batches already grew the heap by and the others
  /// reuse. One batch before the measured ones was not enough: how far the next one's passing
  /// needs overshot it varied from run to run by more than the sessions themselves hold.
  func memory(_ tool: URL, server: RedisServer, into table: inout ResultTable) async throws {
    var perSession: [Double] = []
    var peaks: [Double] = []
    for run in 0..<max(1, min(options.runs, 3)) {
      let cluster = try Cluster(tool: tool, server: server, prefix: "memory-\(run)")
      defer { cluster.stopAll() }
      let worker = try cluster.startWorker("m")
      try await cluster.waitUntilBalanced(workers: 1)
      var resident: [Int] = []
      for step in 1...Self.memorySteps {
        let lines = ((step - 1) * Self.memorySessions..<step * Self.memorySessions).map {
          "{\"term\":\"love\",\"session\":\"m\($0)\"}\n"
        }
        let publish = try ToolProcess(
          tool, arguments: ["publish"] + cluster.redisArguments, input: Data(lines.joined().utf8))
        try await cluster.waitUntilAnswered(shards: Array(0..<Self.shards), atLeast: step * Self.memorySessions)
        _ = await publish.waitForExit(within: Self.patience)
        resident.append(ProcessCPU.residentKilobytes(of: worker.processIdentifier, field: "VmRSS"))
      }
      let measured = (Self.memorySteps - Self.memoryWarmUpSteps) * Self.memorySessions
      let growth = resident[Self.memorySteps - 1] - resident[Self.memoryWarmUpSteps - 1]
      perSession.append(Double(growth) * 1024 / Double(measured))
      peaks.append(Double(ProcessCPU.residentKilobytes(of: worker.processIdentifier, field: "VmHWM")) / 1024)
    }
    table.append(
      ResultRow(
        section: Self.section, name: "(c) worker memory per session held", unit: "bytes",
        sample: Sample(perSession), target: "≤ 1,536",
        note:
          "(RSS with \(Self.memorySteps * Self.memorySessions) sessions − RSS with "
          + "\(Self.memoryWarmUpSteps * Self.memorySessions)) ÷ "
          + "\((Self.memorySteps - Self.memoryWarmUpSteps) * Self.memorySessions), added \(Self.memorySessions) at a "
          + "time; one keystroke each, all answered and still held (idle timeout 10 min)"))
    table.append(
      ResultRow(
        section: Self.section, name: "(c) worker peak RSS with \(Self.memorySteps * Self.memorySessions) sessions",
        unit: "MB",
        sample: Sample(peaks), note: "the catalog included; events held until committed included"))
  }

  /// Calls since the last `CONFIG RESETSTAT`: all of them, and the script calls.
  static func commandCalls(_ connection: RESPConnection) throws -> (total: Int, scripts: Int) {
    let info = try connection.call(RESPCommand("INFO", "commandstats")).string ?? ""
    var total = 0
    var scripts = 0
    // Lines like `cmdstat_xadd:calls=123,usec=…`; the benchmark's own polling is left out.
    let own: Set<String> = ["info", "xinfo|groups", "xinfo|stream", "config|resetstat", "get", "mget", "xrange"]
    for line in info.split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
      let parts = line.dropFirst("cmdstat_".count).split(separator: ":", maxSplits: 1)
      guard parts.count == 2, !own.contains(String(parts[0])) else { continue }
      let calls = parts[1].split(separator: ",").first { $0.hasPrefix("calls=") }
      let count = calls.flatMap { Int($0.dropFirst("calls=".count)) } ?? 0
      total += count
      if parts[0] == "evalsha" { scripts += count }
    }
    return (total, scripts)
  }
}
