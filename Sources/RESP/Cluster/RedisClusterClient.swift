// A client of a whole Redis Cluster, reached through any one node: it learns the slot map with
// `CLUSTER SLOTS`, keeps one connection per master, sends each command to its slot's master, and
// follows the cluster's redirections (`MOVED`: the map is read again; `ASK`: the one command goes
// to the node named, after `ASKING`). A node that fails, or a map that no longer matches, makes
// the next call read the map again from whichever known node answers.
import LineIO

/// Commands to a Redis Cluster, each routed to the master of its key's slot.
///
/// ```swift
/// let cluster = try RedisClusterClient(seed: RedisEndpoint(url: "redis://127.0.0.1:7000"))
/// let replies = try cluster.pipeline([
///   RESPCommand("SET", "{user:1}:name", "ada"), RESPCommand("GET", "{user:2}:name"),
/// ])   // each to its own master, replies in the order sent
/// ```
///
/// - Failure: what a connection throws (``RESPError``); the failed node's connection is dropped
///   and the map is read again before the next call. A command redirected more than
///   ``maximumRedirections`` times (a map that keeps changing, or nodes sending each other round)
///   throws ``RESPError/notReady(_:)``.
/// - Caveat: not thread-safe, like ``RESPConnection``. A command's keys must share a slot (Redis
///   refuses others with `CROSSSLOT`); a command with no key goes to the first master.
public final class RedisClusterClient {
  /// How many times one command may be redirected before the call gives up.
  public static let maximumRedirections = 5

  /// The node the client was given; the map is read from it when no other node answers.
  public let seed: RedisEndpoint
  /// The slot map in use.
  public private(set) var map: ClusterSlotMap
  private let options: RESPConnection.Options
  private let stop: CancellationSignal?
  private var connections: [ClusterNode: RESPConnection] = [:]
  private var stale = false

  /// Reads the slot map from `seed`.
  ///
  /// - Throws: ``RESPError``: ``RESPError/server(_:)`` when `seed` is no cluster node.
  public init(
    seed: RedisEndpoint, options: RESPConnection.Options = .init(), stoppingOn stop: CancellationSignal? = nil
  )
    throws(RESPError)
  {
    self.seed = seed
    self.options = options
    self.stop = stop
    let first = try RESPConnection(endpoint: seed, options: options, stoppingOn: stop)
    guard let map = try Self.slotMap(on: first) else {
      throw .server("\(seed) is not a node of a Redis Cluster")
    }
    self.map = map
    connections[ClusterNode(host: seed.host, port: seed.port)] = first
  }

  /// A client that goes on from `connection` to a node (its seed) and the map it gave: for a
  /// caller that asked `CLUSTER SLOTS` itself to learn whether the server is a cluster.
  public init(
    adopting connection: RESPConnection, map: ClusterSlotMap, stoppingOn stop: CancellationSignal? = nil
  ) {
    seed = connection.endpoint
    options = connection.options
    self.stop = stop
    self.map = map
    connections[ClusterNode(host: seed.host, port: seed.port)] = connection
  }

  /// The map `connection`'s server gives; nil when it is a plain Redis (cluster support
  /// disabled), which answers `CLUSTER SLOTS` with an error.
  ///
  /// - Throws: ``RESPError`` when the connection fails or the map is bogus.
  public static func slotMap(on connection: RESPConnection) throws(RESPError) -> ClusterSlotMap? {
    let reply = try connection.call(RESPCommand("CLUSTER", "SLOTS"))
    if let refusal = reply.errorMessage {
      if reply.isNotReadyError { throw .notReady(refusal) }
      return nil
    }
    return try ClusterSlotMap(slots: reply, askedHost: connection.endpoint.host)
  }

  /// Sends each command to its slot's master (commands for one node in one round trip) and
  /// returns the replies in the order of `commands`, redirections followed.
  public func pipeline(_ commands: [RESPCommand], timeout: Duration? = nil) throws(RESPError) -> [RESPValue] {
    if stale { try refreshMap() }
    var replies = [RESPValue?](repeating: nil, count: commands.count)
    var targets: [Int: ClusterNode] = [:]
    var asking: Set<Int> = []
    var pending = Array(commands.indices)
    for _ in 0...Self.maximumRedirections {
      var byNode: [ClusterNode: [Int]] = [:]
      var order: [ClusterNode] = []
      for index in pending {
        let node: ClusterNode
        if let target = targets[index] { node = target } else { node = try self.node(for: commands[index]) }
        if byNode[node] == nil { order.append(node) }
        byNode[node, default: []].append(index)
      }
      var redirected: [Int] = []
      for node in order {
        let indices = byNode[node] ?? []
        var request = RESPRequest()
        for index in indices {
          if asking.contains(index) { request.append("ASKING") }
          request.append(commands[index])
        }
        let answers = try send(request, to: node, timeout: timeout)
        var answer = answers.makeIterator()
        for index in indices {
          if asking.contains(index) { _ = answer.next() }
          guard let reply = answer.next() else { throw .protocolViolation("a reply missing from \(node)") }
          if let message = reply.errorMessage, let redirect = ClusterRedirect(error: message, from: node.host) {
            targets[index] = ClusterNode(host: redirect.host, port: redirect.port)
            if redirect.kind == .moved {
              stale = true
              asking.remove(index)
            } else {
              asking.insert(index)
            }
            redirected.append(index)
          } else {
            replies[index] = reply
          }
        }
      }
      pending = redirected
      if pending.isEmpty { return replies.map { $0 ?? .null } }
    }
    let slot = ClusterKey.slot(of: commands[pending[0]].arguments) ?? 0
    throw .notReady("slot \(slot) was redirected more than \(Self.maximumRedirections) times")
  }

  /// ``pipeline(_:timeout:)`` of one command.
  public func call(_ command: RESPCommand, timeout: Duration? = nil) throws(RESPError) -> RESPValue {
    guard let reply = try pipeline([command], timeout: timeout).first else { throw .protocolViolation("no reply") }
    return reply
  }

  /// The connection to the master of `slot` (made if needed), for what must run on one node:
  /// a watched transaction, a blocking read.
  public func connection(forSlot slot: Int) throws(RESPError) -> RESPConnection {
    if stale { try refreshMap() }
    guard let node = map.master(of: slot) else { throw .notReady("CLUSTERDOWN no master serves slot \(slot)") }
    return try connection(to: node)
  }

  /// Reads the map again, from the first known node that answers with a valid one (the seed
  /// last).
  public func refreshMap() throws(RESPError) {
    var failure = RESPError.closed
    let known = map.masters + connections.keys.filter { !map.masters.contains($0) }
    for node in known + [ClusterNode(host: seed.host, port: seed.port)] {
      do throws(RESPError) {
        if let fresh = try Self.slotMap(on: connection(to: node)) {
          map = fresh
          stale = false
          // Connections to nodes that are no longer masters go.
          for gone in connections.keys where !fresh.masters.contains(gone) {
            connections.removeValue(forKey: gone)?.close()
          }
          return
        }
      } catch .stopped {
        throw .stopped
      } catch {
        failure = error
        drop(node)
      }
    }
    throw failure
  }

  /// Makes the next call read the map again first: a caller that ran commands on a connection
  /// of its own (``connection(forSlot:)``) and met a failure or a redirection says so here.
  public func invalidate() {
    stale = true
  }

  /// Closes every connection.
  public func close() {
    for connection in connections.values { connection.close() }
    connections = [:]
  }

  deinit { close() }

  private func node(for command: RESPCommand) throws(RESPError) -> ClusterNode {
    guard let slot = ClusterKey.slot(of: command.arguments) else {
      guard let first = map.masters.first else { throw .notReady("CLUSTERDOWN no master") }
      return first
    }
    guard let node = map.master(of: slot) else { throw .notReady("CLUSTERDOWN no master serves slot \(slot)") }
    return node
  }

  private func send(_ request: RESPRequest, to node: ClusterNode, timeout: Duration?) throws(RESPError)
    -> [RESPValue]
  {
    do throws(RESPError) {
      return try connection(to: node).pipeline(request, timeout: timeout)
    } catch {
      // The node may have failed over: the map is read again before the next call.
      drop(node)
      stale = true
      throw error
    }
  }

  /// The connection to `node` (made if needed): the one every call to that node uses.
  public func connection(to node: ClusterNode) throws(RESPError) -> RESPConnection {
    if let open = connections[node], !open.isClosed { return open }
    var endpoint = seed
    endpoint.host = node.host
    endpoint.port = node.port
    endpoint.database = 0
    let fresh = try RESPConnection(endpoint: endpoint, options: options, stoppingOn: stop)
    connections[node] = fresh
    return fresh
  }

  private func drop(_ node: ClusterNode) {
    connections.removeValue(forKey: node)?.close()
  }
}
