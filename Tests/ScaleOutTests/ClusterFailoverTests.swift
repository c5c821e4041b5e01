// The bar for a Redis Cluster: sessions typing through the built binary, three workers, and the
// master serving the most shards killed with SIGKILL mid-way; its replica is promoted
// (cluster-node-timeout 2 s), workers and publishers go on against the new master, and every
// session's last search still ends with exactly one result, read back through another node.
// Outcomes are asserted, never durations: every wait is bounded only to catch a hang.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.enabled(if: RedisCluster.shouldRun, Comment(rawValue: RedisCluster.skipNote)))
struct ClusterFailoverTests {
  /// The bar's size: 300 sessions typing at once.
  @Test func killingTheBusiestMasterLosesNoSession() async throws {
    try await typeThroughAFailover(sessionCount: 300)
  }

  /// Types `sessionCount` sessions' keystrokes through a failover of the busiest master.
  private func typeThroughAFailover(sessionCount: Int) async throws {
    let cluster = try await RedisCluster.start()
    defer { cluster.stop() }
    let deployment = ClusterDeployment(cluster: cluster, shards: 16)
    let keys = try deployment.keys
    let map = try cluster.slotMap()
    // The master serving the most shards, and the nodes that outlive it.
    var shardsByMaster: [UInt16: Int] = [:]
    for shard in 0..<deployment.shards {
      if let master = map.master(of: ClusterSlot.of(keys.fence(shard: shard))) {
        shardsByMaster[master.port, default: 0] += 1
      }
    }
    #expect(shardsByMaster.count == 3, "the shards lie on every master: \(shardsByMaster)")
    let busiest = try #require(shardsByMaster.max { $0.value < $1.value }?.key)
    let victim = try #require(cluster.nodes.firstIndex { $0.port == busiest })
    let survivors = cluster.nodes.indices.filter { $0 != victim }
    // One worker is given the node that dies: it must find the others through the map.
    let workers = try [
      deployment.worker("w1", via: victim), deployment.worker("w2", via: survivors[0]),
      deployment.worker("w3", via: survivors[1]),
    ]
    defer { for worker in workers { worker.stop() } }
    let follower = try deployment.followEvents(via: survivors[2])
    defer { follower.stop() }
    let sessions = (0..<sessionCount).map { "user-\($0)" }
    func lines(_ prefixes: [String]) -> [String] {
      prefixes.flatMap { prefix in sessions.map { #"{"term":"\#(prefix)","session":"\#($0)"}"# } }
    }
    let first = try deployment.publisher(lines(["t", "ta", "tay"]), via: survivors[3])
    defer { first.stop() }
    #expect(await first.waitForExit(within: Deployment.patience)?.status == 0, "\(first.errorLines)")
    // Mid-way: searches are being answered when the master dies.
    let answering = await follower.waitForOutput(within: Deployment.patience) { lines in
      lines.lazy.compactMap(Event.init).filter { $0.type == "search" }.count >= sessionCount / 2
    }
    #expect(answering)
    cluster.nodes[victim].kill()
    // The rest is typed while the replica is being promoted: publish waits it out.
    let second = try deployment.publisher(lines(["tayl", "taylor"]), via: survivors[4])
    defer { second.stop() }
    #expect(await second.waitForExit(within: Deployment.patience)?.status == 0, "\(second.errorLines)")
    #expect(await Deployment.waitForResults(follower, sessions: Set(sessions), term: "taylor"))
    let events = try await deployment.events(via: survivors[0])
    for session in sessions {
      let own = events.filter { $0.session == session }
      let problem = problems(in: own, lastTerm: "taylor")
      #expect(problem == nil, "\(session): \(problem ?? "")")
      #expect(own.filter { $0.type == "results" && $0.term == "taylor" }.count == 1, "\(session)")
    }
    #expect(endsStoredOnce(try deployment.storedEvents()).isEmpty)
    // The replica took over the dead master's slots, and the workers met the outage.
    let after = try deployment.client().map
    #expect(after.masters.count == 3 && !after.masters.contains { $0.port == busiest }, "\(after.masters)")
    #expect(workers.contains { $0.errorLines.contains { $0.contains("lost the connection") } })
    #expect(try deployment.mastersHoldingKeys().count == 3)
    for worker in workers {
      #expect(!worker.hasExited, "\(worker.errorLines.suffix(5))")
    }
  }
}
