// The number of shards is part of the data: a keystroke's shard depends on it, so it is fixed the
// first time a prefix is used and stored there, and every later command reads it back.
import LineIO
import RESP
import Streams

/// The stored shard count of a prefix.
package enum ShardCount {
  /// Shards when a prefix is first used without `--shards`.
  package static let defaultCount = 16
  /// The most shards a prefix may have.
  package static let maximum = 4096
  /// The configuration format this version writes and reads.
  static let format = "1"

  /// The prefix's shard count: the stored one, or `requested` (else ``defaultCount``) stored now
  /// when the prefix is new. Two commands starting at once on a new prefix agree: the first
  /// `HSETNX` wins and both read its value.
  ///
  /// - Throws: ``ScaleOutError/shardCountMismatch(requested:stored:prefix:)`` when `requested`
  ///   differs from the stored count; ``ScaleOutError/foreignConfiguration(prefix:reason:)``
  ///   when the key holds something else. `RESPError` when Redis fails.
  package static func settle(
    requested: Int?, keys: ScaleOutKeys, on connection: RESPConnection
  ) throws -> Int {
    let proposed = requested ?? defaultCount
    let replies = try connection.readyPipeline([
      RESPCommand("HSETNX", keys.configuration, "shards", proposed),
      RESPCommand("HSETNX", keys.configuration, "format", format),
      RESPCommand("HMGET", keys.configuration, "shards", "format"),
    ])
    if let refusal = replies.lazy.compactMap(\.errorMessage).first {
      throw refusalError(refusal, keys: keys, connection: connection)
    }
    let fields = replies[2].array ?? []
    guard fields.count == 2, let stored = fields[0].integer, (1...Int64(maximum)).contains(stored) else {
      throw ScaleOutError.foreignConfiguration(prefix: keys.prefix, reason: "no valid shards field")
    }
    guard fields[1].string == format else {
      throw ScaleOutError.foreignConfiguration(
        prefix: keys.prefix, reason: "format \(fields[1].string ?? "missing"), expected \(format)")
    }
    if let requested, requested != Int(stored) {
      throw ScaleOutError.shardCountMismatch(requested: requested, stored: Int(stored), prefix: keys.prefix)
    }
    return Int(stored)
  }

  /// ``settle(requested:keys:on:)`` on a connection of its own to `endpoint` (in a cluster, to
  /// the master of the configuration's slot), made (and every reply awaited) until `stop` fires.
  ///
  /// - Throws: ``ScaleOutError``: ``ScaleOutError/unreachable(_:_:)`` for a failure of Redis;
  ///   `CancellationError` when `stop` fired first.
  static func settle(
    requested: Int?, keys: ScaleOutKeys, endpoint: RedisEndpoint, options: RESPConnection.Options,
    stop: CancellationSignal?
  ) throws -> Int {
    try onConfiguration(keys: keys, endpoint: endpoint, options: options, stop: stop) { connection in
      try settle(requested: requested, keys: keys, on: connection)
    }
  }

  /// Runs `body` on a connection of its own to the server holding `keys`' configuration:
  /// `endpoint`, or the master of the configuration's slot when `endpoint` is a node of a Redis
  /// Cluster. Failures of Redis are ``ScaleOutError/unreachable(_:_:)``, a stop
  /// `CancellationError`.
  static func onConfiguration<T>(
    keys: ScaleOutKeys, endpoint: RedisEndpoint, options: RESPConnection.Options, stop: CancellationSignal?,
    _ body: (RESPConnection) throws -> T
  ) throws -> T {
    let first: RESPConnection
    do {
      first = try RESPConnection(endpoint: endpoint, options: options, stoppingOn: stop)
    } catch .stopped {
      throw CancellationError()
    } catch {
      throw ScaleOutError.unreachable(endpoint, error)
    }
    var cluster: RedisClusterClient?
    defer {
      first.close()
      cluster?.close()
    }
    do {
      var connection = first
      if let map = try ClusterDetection.slotMap(on: first) {
        let client = RedisClusterClient(adopting: first, map: map, stoppingOn: stop)
        cluster = client
        connection = try client.connection(forSlot: ClusterSlot.of(keys.configuration))
      }
      return try body(connection)
    } catch RESPError.stopped {
      throw CancellationError()
    } catch let error as RESPError {
      throw ScaleOutError.unreachable(endpoint, error)
    }
  }

  /// What ``confirm(_:keys:on:)`` found.
  enum Confirmation: Equatable {
    /// The prefix holds the count.
    case kept
    /// The configuration was gone (Redis flushed, or restarted without its data) and is stored
    /// again with the count.
    case restored
  }

  /// Checks that the prefix still holds `count` shards, the count a running command uses, and
  /// stores it again when the configuration is gone: after `FLUSHALL` or a restart without data,
  /// the next command must find the count the running ones use, not create the prefix anew.
  ///
  /// - Throws: ``ScaleOutError/shardCountChanged(stored:running:prefix:)`` when the prefix holds
  ///   another count (another command created it again first); ``ScaleOutError`` for what
  ///   ``settle(requested:keys:on:)`` refuses (out of memory: tried again later); `RESPError`
  ///   when Redis fails.
  static func confirm(_ count: Int, keys: ScaleOutKeys, on connection: RESPConnection) throws -> Confirmation {
    let reply = try connection.readyCall(RESPCommand("HMGET", keys.configuration, "shards", "format"))
    if let refusal = reply.errorMessage { throw refusalError(refusal, keys: keys, connection: connection) }
    let fields = reply.array ?? []
    if fields.count == 2, fields[0].isNull {
      do {
        _ = try settle(requested: count, keys: keys, on: connection)
      } catch ScaleOutError.shardCountMismatch(_, let stored, _) {
        throw ScaleOutError.shardCountChanged(stored: stored, running: count, prefix: keys.prefix)
      }
      return .restored
    }
    guard fields.count == 2, let stored = fields[0].integer, (1...Int64(maximum)).contains(stored) else {
      throw ScaleOutError.foreignConfiguration(prefix: keys.prefix, reason: "no valid shards field")
    }
    guard Int(stored) == count else {
      throw ScaleOutError.shardCountChanged(stored: Int(stored), running: count, prefix: keys.prefix)
    }
    return .kept
  }

  /// ``confirm(_:keys:on:)`` for a caller whose Redis failures are retried: a failure of Redis is
  /// thrown, what the prefix holds is returned.
  static func confirmation(_ count: Int, keys: ScaleOutKeys, on connection: RESPConnection) throws(RESPError)
    -> Result<Confirmation, ScaleOutError>
  {
    do {
      return .success(try confirm(count, keys: keys, on: connection))
    } catch let error as RESPError {
      throw error
    } catch let error as ScaleOutError {
      return .failure(error)
    } catch {
      return .failure(.foreignConfiguration(prefix: keys.prefix, reason: "\(error)"))
    }
  }

  /// The stored count, or nil when the prefix has not been used yet (nothing is written).
  package static func read(keys: ScaleOutKeys, on connection: RESPConnection) throws -> Int? {
    let reply = try connection.readyCall(RESPCommand("HGET", keys.configuration, "shards"))
    if let refusal = reply.errorMessage {
      throw refusalError(refusal, keys: keys, connection: connection)
    }
    guard !reply.isNull else { return nil }
    guard let stored = reply.integer, (1...Int64(maximum)).contains(stored) else {
      throw ScaleOutError.foreignConfiguration(prefix: keys.prefix, reason: "no valid shards field")
    }
    return Int(stored)
  }

  /// A server that wants a password (or another user) refuses every command: that is a failure
  /// to reach it, not a foreign configuration at the prefix. A full one refuses every write:
  /// that is a temporary failure.
  private static func refusalError(_ refusal: String, keys: ScaleOutKeys, connection: RESPConnection) -> ScaleOutError {
    let accessCodes = ["NOAUTH", "WRONGPASS", "NOPERM"]
    if accessCodes.contains(where: { refusal.hasPrefix($0) }) {
      return .unreachable(connection.endpoint, .server(refusal))
    }
    if RedisRefusal.isOutOfMemory(refusal) { return .outOfMemory(connection.endpoint, refusal) }
    return .foreignConfiguration(prefix: keys.prefix, reason: refusal)
  }
}
