// A real Redis Cluster for the tests: six redis-server nodes on loopback (three masters, each with
// one replica), joined by `redis-cli --cluster create`, with a node timeout of 2 s so that a
// killed master's replica is promoted within seconds. Tests that need one skip with one line when
// redis-server or redis-cli is missing, except under CI, where that is a failure.
import Foundation
import RESP

/// Why a cluster could not be had.
public struct RedisClusterError: Error, CustomStringConvertible {
  /// One line.
  public let description: String
}

/// Six `redis-server` nodes in cluster mode on 127.0.0.1.
///
/// ```swift
/// @Test(.enabled(if: RedisCluster.shouldRun, Comment(rawValue: RedisCluster.skipNote)))
/// func routes() async throws {
///   let cluster = try await RedisCluster.start()
///   defer { cluster.stop() }
///   let map = try cluster.slotMap()   // three masters, 16384 slots
/// }
/// ```
public final class RedisCluster: Sendable {
  /// The nodes, masters and replicas alike, in the order they were created (`redis-cli` makes
  /// the first three masters).
  public let nodes: [RedisServer]

  /// Whether tests that need a cluster should run: redis-server and redis-cli are installed, or
  /// this is CI.
  public static var shouldRun: Bool { (RedisServer.executable != nil && cli.isAvailable) || RedisServer.isCI }

  /// The line a skipped test prints.
  public static let skipNote =
    "redis-server or redis-cli is not installed (apt-get install redis-server redis-tools); skipped"

  private static let cli = RequiredTool.executable("redis-cli", installedBy: "redis-tools")

  private init(nodes: [RedisServer]) { self.nodes = nodes }

  /// Starts six nodes, makes them a cluster and returns once every node sees all 16384 slots
  /// served and each master has its replica (within `timeout`).
  public static func start(timeout: Duration = hangBound) async throws -> RedisCluster {
    guard RedisServer.executable != nil else { throw RedisServerError.notInstalled }
    let cliPath = try cli.path()
    var nodes: [RedisServer] = []
    do {
      for _ in 0..<6 {
        nodes.append(
          try await RedisServer.start(
            extraArguments: ["--cluster-enabled", "yes", "--cluster-node-timeout", "2000"], portsBelow: 55_000))
      }
      let cluster = RedisCluster(nodes: nodes)
      let create = try await Subprocess.run(
        URL(fileURLWithPath: cliPath),
        arguments: ["--cluster", "create"] + nodes.map { "127.0.0.1:\($0.port)" } + [
          "--cluster-replicas", "1", "--cluster-yes",
        ])
      guard create.status == 0 else {
        throw RedisClusterError(description: "redis-cli --cluster create failed: \(create.stdout.suffix(500))")
      }
      try await cluster.waitUntilHealthy(within: timeout)
      return cluster
    } catch {
      for node in nodes { node.stop() }
      throw error
    }
  }

  /// `redis://127.0.0.1:<port>` of node `index`.
  public func url(_ index: Int) -> String { nodes[index].url }

  /// The slot map as node `index` sees it.
  public func slotMap(from index: Int = 0) throws -> ClusterSlotMap {
    let connection = try RESPConnection(endpoint: nodes[index].endpoint)
    return try ClusterSlotMap(slots: try connection.call(RESPCommand("CLUSTER", "SLOTS")), askedHost: "127.0.0.1")
  }

  /// The node serving as master of `slot`, by the map node `index` has.
  public func master(of slot: Int, from index: Int = 0) throws -> RedisServer? {
    guard let master = try slotMap(from: index).master(of: slot) else { return nil }
    return nodes.first { $0.port == master.port }
  }

  /// Returns once every live node sees 16384 slots served by three masters, each with `replicas`
  /// replicas; throws when `within` passes first.
  public func waitUntilHealthy(replicas: Int = 1, within limit: Duration) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    var last = "no answer yet"
    while clock.now < deadline {
      var healthy = true
      for node in nodes where node.processIdentifier != nil {
        do {
          let map = try slotMap(from: nodes.firstIndex { $0 === node } ?? 0)
          let connection = try RESPConnection(endpoint: node.endpoint)
          let info = try connection.call(RESPCommand("CLUSTER", "INFO")).string ?? ""
          if !info.contains("cluster_state:ok") || map.coveredSlots != ClusterSlot.count
            || map.masters.count != 3 || map.replicaCounts.contains(where: { $0 != replicas })
          {
            healthy = false
            last = "node \(node.port): \(map.masters.count) masters, replicas \(map.replicaCounts)"
          }
        } catch {
          healthy = false
          last = "node \(node.port): \(error)"
        }
      }
      if healthy { return }
      try await Task.sleep(for: .milliseconds(200))
    }
    throw RedisClusterError(description: "the cluster was not healthy within \(limit): \(last)")
  }

  /// Stops every node and removes their directories. Safe to call more than once.
  public func stop() {
    for node in nodes { node.stop() }
  }

  deinit { stop() }
}
