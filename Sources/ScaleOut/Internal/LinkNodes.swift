// What a link's call runs its commands on: the one connection of a plain Redis, or the masters of
// a Redis Cluster. Multi-key steps stay within one hash slot (every shard's keys share a tag), so a
// caller asks for the connection of a key's slot; commands that are independent of each other go
// through `pipeline`, which sends each to its slot's master. On a plain Redis both are the one
// connection, and the commands go exactly as they always did.
import RESP

/// The server, or servers, a ``RedisLink`` call runs on.
struct LinkNodes {
  /// The connection to a plain Redis; nil in a cluster.
  let plain: RESPConnection?
  /// The cluster client; nil for a plain Redis.
  let cluster: RedisClusterClient?

  /// How long a write waits for a replica's acknowledgement (`WAIT 1`) before it counts as not
  /// stored (and is sent again).
  static let replicaWait = Duration.seconds(1)

  /// Whether the server is a node of a Redis Cluster.
  var isCluster: Bool { cluster != nil }

  /// The connection serving `key`'s slot: for a transaction or a script, whose keys all share it.
  func connection(for key: String) throws(RESPError) -> RESPConnection {
    if let cluster { return try cluster.connection(forSlot: ClusterSlot.of(key)) }
    guard let plain else { throw .closed }
    return plain
  }

  /// Sends each command to its key's node (one round trip per node) and returns the replies in
  /// order. A reply saying the server is not ready, or that the slot is elsewhere, throws
  /// ``RESPError/notReady(_:)``: the link tries again once the map is read again.
  func pipeline(_ commands: [RESPCommand], timeout: Duration? = nil) throws(RESPError) -> [RESPValue] {
    guard let cluster else {
      guard let plain else { throw .closed }
      return try plain.readyPipeline(commands, timeout: timeout)
    }
    let replies = try cluster.pipeline(commands, timeout: timeout)
    if let waiting = replies.first(where: \.isNotReadyError)?.errorMessage { throw .notReady(waiting) }
    return replies
  }

  /// Returns once a replica of the master serving `key` has what `connection` wrote to it
  /// (`WAIT 1`), so that a failover of that master keeps it; at once for a plain Redis and for a
  /// master without replicas, whose writes a failover cannot lose to a replica.
  ///
  /// - Throws: ``RESPError/notReady(_:)`` when no replica acknowledged within ``replicaWait``:
  ///   the write is not known to survive a failover, and the caller sends it again.
  func waitForReplica(of key: String, on connection: RESPConnection) throws(RESPError) {
    guard let cluster, cluster.map.replicas(of: ClusterSlot.of(key)) > 0 else { return }
    let milliseconds = Self.replicaWait.components.seconds * 1_000
    let reply = try connection.readyCall(
      RESPCommand("WAIT", 1, milliseconds), timeout: connection.options.replyTimeout + Self.replicaWait)
    guard let acknowledged = reply.integer, acknowledged >= 1 else {
      throw .notReady("no replica of \(connection.endpoint) acknowledged the write within \(Self.replicaWait)")
    }
  }

  /// ``waitForReplica(of:on:)`` for the masters of `keys`, once per master.
  func waitForReplicas(of keys: some Sequence<String>) throws(RESPError) {
    guard let cluster else { return }
    var waited: Set<ClusterNode> = []
    for key in keys {
      guard let master = cluster.map.master(of: ClusterSlot.of(key)), waited.insert(master).inserted else { continue }
      try waitForReplica(of: key, on: try cluster.connection(to: master))
    }
  }
}

/// Whether a server is a node of a Redis Cluster.
enum ClusterDetection {
  /// The error codes a plain Redis gives `CLUSTER SLOTS`: cluster support disabled or an unknown
  /// command (`ERR`), the command not allowed (`NOPERM`), a password wanted (`NOAUTH`,
  /// `WRONGPASS`: the next command says so).
  private static let plainRefusals: Set<Substring> = ["ERR", "NOPERM", "NOAUTH", "WRONGPASS"]

  /// The slot map of the cluster `connection`'s server belongs to; nil for a plain Redis (which
  /// refuses `CLUSTER SLOTS`) and for a server that answers it with no array (a proxy).
  ///
  /// - Throws: ``RESPError`` when the connection fails or the server is not ready;
  ///   ``RESPError/server(_:)`` for an error no Redis gives that command;
  ///   ``RESPError/protocolViolation(_:)`` for an array that is no slot map.
  static func slotMap(on connection: RESPConnection) throws(RESPError) -> ClusterSlotMap? {
    let reply = try connection.readyCall(RESPCommand("CLUSTER", "SLOTS"))
    if let refusal = reply.errorMessage {
      guard plainRefusals.contains(refusal.prefix { $0 != " " }) else { throw .server("CLUSTER SLOTS: \(refusal)") }
      return nil
    }
    guard let ranges = reply.array, !ranges.isEmpty else { return nil }
    do throws(RESPError) {
      return try ClusterSlotMap(slots: reply, askedHost: connection.endpoint.host)
    } catch .protocolViolation(let why) {
      throw .protocolViolation("CLUSTER SLOTS answered an array that is no slot map (\(why))")
    }
  }
}
