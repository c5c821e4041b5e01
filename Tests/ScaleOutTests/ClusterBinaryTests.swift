// `publish`, `worker` and `events` on a real six-node Redis Cluster (three masters, three
// replicas), each pointed at a different node, masters and replicas alike: every session is
// answered once, read back through yet another node, and the deployment's keys lie on every
// master.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.enabled(if: RedisCluster.shouldRun, Comment(rawValue: RedisCluster.skipNote)))
struct ClusterBinaryTests {
  @Test func publishWorkerAndEventsWorkThroughAnyNode() async throws {
    let cluster = try await RedisCluster.start()
    defer { cluster.stop() }
    let deployment = ClusterDeployment(cluster: cluster)
    // One worker through a master, one through a replica.
    let workers = try [deployment.worker("w1", via: 1), deployment.worker("w2", via: 4)]
    defer { for worker in workers { worker.stop() } }
    let follower = try deployment.followEvents(via: 0)
    defer { follower.stop() }
    let sessions = (0..<60).map { "user-\($0)" }
    var lines: [String] = []
    for prefix in ["t", "ta", "tay", "tayl", "taylor"] {
      for session in sessions { lines.append(#"{"term":"\#(prefix)","session":"\#(session)"}"#) }
    }
    let publisher = try deployment.publisher(lines, via: 2)
    defer { publisher.stop() }
    let published = await publisher.waitForExit(within: Deployment.patience)
    #expect(published?.status == 0, "\(publisher.errorLines)")
    #expect(await Deployment.waitForResults(follower, sessions: Set(sessions), term: "taylor"))
    let events = try await deployment.events(via: 5)
    for session in sessions {
      let own = events.filter { $0.session == session }
      let problem = problems(in: own, lastTerm: "taylor")
      #expect(problem == nil, "\(session): \(problem ?? "")")
      #expect(own.filter { $0.type == "results" && $0.term == "taylor" }.count == 1, "\(session)")
    }
    #expect(endsStoredOnce(try deployment.storedEvents()).isEmpty)
    #expect(try deployment.mastersHoldingKeys().count == 3)
    for worker in workers {
      #expect(!worker.hasExited, "\(worker.errorLines.suffix(5))")
    }
  }
}
