// A deployment on a real six-node Redis Cluster: the built binary as workers, `publish` and
// `events`, each given whichever node the test names (a master or a replica), and a cluster
// client to look at what is stored and where.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

/// One prefix on one cluster, and the commands that use it.
struct ClusterDeployment {
  let cluster: RedisCluster
  let prefix: String
  let shards: Int

  init(cluster: RedisCluster, prefix: String = "t", shards: Int = 8) {
    self.cluster = cluster
    self.prefix = prefix
    self.shards = shards
  }

  var keys: ScaleOutKeys {
    get throws { try ScaleOutKeys(prefix: prefix) }
  }

  private func redisArguments(via node: Int) -> [String] { ["--redis", cluster.url(node), "--redis-prefix", prefix] }

  /// Starts a worker on node `node` with `--verbose`, answering from the small catalog file.
  func worker(_ name: String, via node: Int, lease: String = "1s", extra: [String] = []) throws -> ToolProcess {
    let catalog = SharedFixtures.projectFolder("interactive-catalog.json").path
    return try ToolProcess(
      toolBinary(),
      arguments: ["worker"] + redisArguments(via: node) + [
        "--shards", String(shards), "--name", name, "--lease", lease, "--verbose", "--catalog", catalog,
      ] + extra)
  }

  /// `publish` of `lines` through node `node`, running.
  func publisher(_ lines: [String], via node: Int) throws -> ToolProcess {
    try ToolProcess(
      toolBinary(), arguments: ["publish"] + redisArguments(via: node) + ["--shards", String(shards)],
      input: Data(lines.map { $0 + "\n" }.joined().utf8))
  }

  /// `events` through node `node`, run once: the events there now, parsed.
  func events(via node: Int) async throws -> [Event] {
    let result = try await Subprocess.run(toolBinary(), arguments: ["events"] + redisArguments(via: node))
    #expect(result.status == 0, "events: \(result.stderr)")
    return result.stdout.split(separator: "\n").compactMap { Event(line: String($0)) }
  }

  /// `events --follow` through node `node`, running.
  func followEvents(via node: Int) throws -> ToolProcess {
    try ToolProcess(toolBinary(), arguments: ["events"] + redisArguments(via: node) + ["--follow"])
  }

  /// A cluster client through the first live node.
  func client() throws -> RedisClusterClient {
    guard let live = cluster.nodes.first(where: { $0.processIdentifier != nil }) else {
      throw RESPError.closed
    }
    return try RedisClusterClient(seed: live.endpoint)
  }

  /// The raw entries of every shard's event stream: (shard, key, type, session).
  func storedEvents() throws -> [(shard: Int, key: String, type: String, session: String?)] {
    let client = try self.client()
    defer { client.close() }
    let keys = try self.keys
    let replies = try client.pipeline((0..<shards).map { RESPCommand("XRANGE", keys.events(shard: $0), "-", "+") })
    var all: [(Int, String, String, String?)] = []
    for (shard, reply) in replies.enumerated() {
      for entry in reply.array ?? [] {
        let fields = entry.array?.last?.array?.compactMap(\.string) ?? []
        var map: [String: String] = [:]
        for index in stride(from: 0, to: fields.count - 1, by: 2) { map[fields[index]] = fields[index + 1] }
        all.append((shard, map["key"] ?? "", map["type"] ?? "", map["session"]))
      }
    }
    return all
  }

  /// The ports of the masters that hold at least one key of the prefix.
  func mastersHoldingKeys() throws -> Set<UInt16> {
    let client = try self.client()
    defer { client.close() }
    var holding: Set<UInt16> = []
    for master in client.map.masters {
      let reply = try client.connection(to: master).call(RESPCommand("KEYS", "*\(prefix)*"))
      if !(reply.array ?? []).isEmpty { holding.insert(master.port) }
    }
    return holding
  }
}
