// `publish`, `worker` and `events` pointed at a node of a Redis Cluster that does not serve the
// configuration's slot: each says in one line that the address is a cluster node (the `MOVED` it
// got included) and exits as for a Redis it cannot use, rather than blaming the prefix.
import Foundation
import RESP
import TestSupport
import Testing

@Suite(.enabled(if: RedisCluster.shouldRun, Comment(rawValue: RedisCluster.skipNote)))
struct ClusterNodeBinaryTests {
  @Test func eachCommandSaysTheAddressIsAClusterNode() async throws {
    let cluster = try await RedisCluster.start()
    defer { cluster.stop() }
    let map = try cluster.slotMap()
    let owner = try #require(map.master(of: ClusterSlot.of("t:config")))
    let other = try #require(cluster.nodes.prefix(3).first { $0.port != owner.port })
    let catalog = SharedFixtures.projectFolder("interactive-catalog.json").path
    for arguments in [
      ["publish", "--redis", other.url, "--redis-prefix", "t", "--shards", "4"],
      ["worker", "--redis", other.url, "--redis-prefix", "t", "--shards", "4", "--catalog", catalog],
      ["events", "--redis", other.url, "--redis-prefix", "t"],
    ] {
      let run = try await Subprocess.run(
        toolBinary(), arguments: arguments, input: Data(#"{"term":"love","session":"u1"}"#.utf8 + [0x0A]))
      #expect(run.status == 69, "\(arguments[0]): \(run.status) \(run.stderr)")
      #expect(run.stderr.contains("is a node of a Redis Cluster"), "\(arguments[0]): \(run.stderr)")
      #expect(run.stderr.contains("MOVED \(ClusterSlot.of("t:config"))"), "\(arguments[0]): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments[0]): \(run.stderr)")
    }
  }
}
