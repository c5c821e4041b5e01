// The "scaleout" section's (b): from `kill -9` of one of two workers until the keystrokes typed
// into its sessions after the kill are answered.
import Foundation
import RESP
import ScaleOut
import TestSupport

extension ScaleOutSection {
  func failover(_ tool: URL, server: RedisServer, into table: inout ResultTable) async throws {
    var seconds: [Double] = []
    let runs = 10
    for run in 0..<runs {
      let cluster = try Cluster(tool: tool, server: server, prefix: "failover-\(run)")
      defer { cluster.stopAll() }
      try cluster.startWorker("a")
      try await cluster.waitUntilBalanced(workers: 1)
      let victim = try cluster.startWorker("b")
      try await cluster.waitUntilBalanced(workers: 2)
      let held = try cluster.holders().filter { $0.value == "b" }.map(\.key).sorted()
      var sessions: [String] = []
      for index in 0..<100_000 where sessions.count < Self.failoverSessions {
        let session = "f\(index)"
        if held.contains(ShardHash.shard(of: session, shardCount: Self.shards)) { sessions.append(session) }
      }
      let lines = sessions.map { "{\"term\":\"love\",\"session\":\"\($0)\"}\n" }.joined()
      let clock = ContinuousClock()
      victim.signal(SIGKILL)
      let killed = clock.now
      let publish = try ToolProcess(tool, arguments: ["publish"] + cluster.redisArguments, input: Data(lines.utf8))
      try await cluster.waitUntilAnswered(shards: held, atLeast: Self.failoverSessions)
      seconds.append(nanoseconds(killed.duration(to: clock.now)) / 1e9)
      _ = await publish.waitForExit(within: Self.patience)
      let results = try cluster.resultCount(shards: held)
      guard results == Self.failoverSessions else {
        throw BenchmarkFailure(description: "failover: \(results) results for \(Self.failoverSessions) sessions")
      }
    }
    table.append(
      ResultRow(
        section: Self.section, name: "(b) failover: kill -9 → its sessions answered again", unit: "s",
        sample: Sample(seconds), target: "≤ 6 (lease 5 s + 1 s)",
        note:
          "2 workers, default lease (5 s) and debounce (300 ms); \(Self.failoverSessions) sessions of the killed "
          + "worker typed into right after the kill; \(runs) runs"))
  }
}
