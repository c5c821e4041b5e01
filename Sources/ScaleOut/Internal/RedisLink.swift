// One thread's connection to Redis that outlives the server's restarts: a call that fails for a
// transient reason (refused, reset, timed out) is tried again on a new connection, after a backoff
// that doubles up to a ceiling, until it succeeds or the thread is asked to stop. The scripts are
// loaded on each new connection. A server that turns out to be a node of a Redis Cluster (its
// first connection asks `CLUSTER SLOTS`) makes the link a cluster client: one connection per
// master, each command sent to its key's slot, the map read again after any failure (a master
// failed over, a slot moved).
import LineIO
import RESP
import Streams

/// Why a link gave up.
enum LinkFailure: Error, Equatable {
  /// The stop signal fired.
  case stopped
  /// A failure a new connection cannot fix (credentials refused, a script the server rejects).
  case fatal(RESPError)
  /// The attempts allowed were used up.
  case exhausted(RESPError)
}

/// Backoff between reconnections: 100 ms, doubling, at most 2 s.
struct ReconnectBackoff: Sendable {
  var first: Duration = .milliseconds(100)
  var ceiling: Duration = .seconds(2)
}

/// A reconnecting connection, used by one thread. Not thread-safe.
final class RedisLink {
  let endpoint: RedisEndpoint
  let options: RESPConnection.Options
  let stop: CancellationSignal?
  private let notice: @Sendable (LinkNotice) -> Void
  private let backoff: ReconnectBackoff
  /// Whether each new connection loads the workers' scripts (the shared store runs none).
  private let loadsScripts: Bool
  private let clock = ContinuousClock()
  private var connection: RESPConnection?
  /// Set once the first connection found a cluster: every later call goes through it.
  private var cluster: RedisClusterClient?
  private var scripts: [ScaleOutScript: String] = [:]
  private var down = false
  /// Counts the connections made: a caller that registered something per connection (its client
  /// id) does it again when this changes.
  private(set) var connectionNumber = 0

  init(
    endpoint: RedisEndpoint, options: RESPConnection.Options, stop: CancellationSignal?,
    backoff: ReconnectBackoff = ReconnectBackoff(), loadsScripts: Bool = true,
    notice: @escaping @Sendable (LinkNotice) -> Void
  ) {
    self.loadsScripts = loadsScripts
    self.endpoint = endpoint
    self.options = options
    self.stop = stop
    self.backoff = backoff
    self.notice = notice
  }

  /// Runs `body` on a working connection; a transient failure closes it, waits, and runs `body`
  /// again on a new one (so `body` must be safe to repeat). `attempts` nil tries until stopped.
  func perform<T>(attempts: Int? = nil, _ body: (LinkNodes) throws(RESPError) -> T) throws(LinkFailure) -> T {
    var wait = backoff.first
    var attempt = 0
    while true {
      attempt += 1
      // A connection made earlier may have died unnoticed (the server restarted while this link
      // was idle): that is no outage if a new one works at once, so it is tried again before
      // anything is reported.
      let reused = connection != nil || cluster != nil
      do throws(RESPError) {
        return try succeed(body)
      } catch .stopped {
        throw .stopped
      } catch {
        guard error.isTransient else { throw .fatal(error) }
        var failure = error
        if reused {
          do throws(RESPError) {
            return try succeed(body)
          } catch .stopped {
            throw .stopped
          } catch {
            guard error.isTransient else { throw .fatal(error) }
            failure = error
          }
        }
        if !down {
          down = true
          notice(.lost(failure))
        }
        if let attempts, attempt >= attempts { throw .exhausted(failure) }
        if StopWait.wait(for: wait, clock: clock, stop: stop) { throw .stopped }
        wait = min(wait * 2, backoff.ceiling)
      }
    }
  }

  /// Whether the server is a node of a Redis Cluster (connecting first if the link has not yet).
  func isCluster() throws(LinkFailure) -> Bool {
    try perform { (nodes: LinkNodes) throws(RESPError) -> Bool in nodes.isCluster }
  }

  /// Runs `body` once on the current connection (made if needed); closes it on a failure (in a
  /// cluster: the failed node's connection is closed, and the map is read again before the next
  /// call).
  private func succeed<T>(_ body: (LinkNodes) throws(RESPError) -> T) throws(RESPError) -> T {
    do throws(RESPError) {
      let nodes = try current()
      let value = try body(nodes)
      if down {
        down = false
        notice(.restored)
      }
      return value
    } catch {
      connection?.close()
      connection = nil
      if let cluster {
        cluster.invalidate()
        connectionNumber += 1
      }
      throw error
    }
  }

  /// The `EVALSHA` command of `script` with its keys and arguments.
  func command(_ script: ScaleOutScript, keys: [String], arguments: [any RESPArgument]) -> RESPCommand {
    RESPCommand("EVALSHA", arguments: [scripts[script] ?? "", keys.count] + keys + arguments)
  }

  /// Runs script calls in one round trip per node (each call on its first key's slot in a
  /// cluster); a call a node does not know (`NOSCRIPT`: a node reached for the first time, or
  /// after a `SCRIPT FLUSH`) is loaded there and repeated. Error replies are returned as values.
  func runScripts(_ calls: [ScriptCall], on nodes: LinkNodes, timeout: Duration? = nil) throws(RESPError)
    -> [RESPValue]
  {
    guard let cluster = nodes.cluster else {
      return try runScripts(calls, on: try nodes.connection(for: ""), timeout: timeout)
    }
    var groups: [ObjectIdentifier: (connection: RESPConnection, indices: [Int])] = [:]
    var order: [ObjectIdentifier] = []
    for (index, call) in calls.enumerated() {
      let connection = try cluster.connection(forSlot: ClusterSlot.of(call.keys.first ?? ""))
      let id = ObjectIdentifier(connection)
      if groups[id] == nil { order.append(id) }
      groups[id, default: (connection, [])].indices.append(index)
    }
    var replies = [RESPValue](repeating: .null, count: calls.count)
    for id in order {
      guard let group = groups[id] else { continue }
      let answers = try runScripts(group.indices.map { calls[$0] }, on: group.connection, timeout: timeout)
      for (index, answer) in zip(group.indices, answers) { replies[index] = answer }
    }
    return replies
  }

  /// Runs script calls in one round trip; a call the server no longer knows (`NOSCRIPT`, after a
  /// `SCRIPT FLUSH`) is loaded again and repeated. Error replies are returned as values.
  func runScripts(_ calls: [ScriptCall], on connection: RESPConnection, timeout: Duration? = nil)
    throws(RESPError) -> [RESPValue]
  {
    var replies = try connection.readyPipeline(
      calls.map { command($0.script, keys: $0.keys, arguments: $0.arguments) }, timeout: timeout)
    let missing = replies.indices.filter { replies[$0].errorMessage?.hasPrefix("NOSCRIPT") == true }
    guard !missing.isEmpty else { return replies }
    try load(on: connection)
    let again = try connection.readyPipeline(
      missing.map { command(calls[$0].script, keys: calls[$0].keys, arguments: calls[$0].arguments) },
      timeout: timeout)
    for (index, reply) in zip(missing, again) { replies[index] = reply }
    return replies
  }

  /// Closes the connection (a stopping thread lets go of it at once).
  func close() {
    connection?.close()
    connection = nil
    cluster?.close()
  }

  private func current() throws(RESPError) -> LinkNodes {
    if let cluster { return LinkNodes(plain: nil, cluster: cluster) }
    if let connection, !connection.isClosed { return LinkNodes(plain: connection, cluster: nil) }
    let fresh = try RESPConnection(endpoint: endpoint, options: options, stoppingOn: stop)
    if connectionNumber == 0, let map = try ClusterDetection.slotMap(on: fresh) {
      // Scripts are loaded on each node when it first answers NOSCRIPT.
      let client = RedisClusterClient(adopting: fresh, map: map, stoppingOn: stop)
      cluster = client
      connectionNumber += 1
      return LinkNodes(plain: nil, cluster: client)
    }
    if loadsScripts { try load(on: fresh) }
    connection = fresh
    connectionNumber += 1
    return LinkNodes(plain: fresh, cluster: nil)
  }

  private func load(on connection: RESPConnection) throws(RESPError) {
    let all = ScaleOutScript.allCases
    let replies = try connection.readyPipeline(all.map { RESPCommand("SCRIPT", "LOAD", $0.source) })
    for (script, reply) in zip(all, replies) {
      guard let sha = reply.string, reply.errorMessage == nil else {
        throw .server("cannot load the \(script.rawValue) script: \(reply.errorMessage ?? "no answer")")
      }
      scripts[script] = sha
    }
  }
}

/// One call of a script.
struct ScriptCall {
  let script: ScaleOutScript
  let keys: [String]
  let arguments: [any RESPArgument]
}
