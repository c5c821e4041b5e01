// What can stop a command on Redis before or while it runs, in words a user can act on.
import RESP

/// A failure of `publish`, `worker` or `events` that ends the command.
package enum ScaleOutError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The `--redis-prefix` cannot be used in key names.
  case invalidPrefix(String)
  /// Redis could not be reached (or refused the credentials) at the start.
  case unreachable(RedisEndpoint, RESPError)
  /// `--shards` differs from the count the prefix was created with.
  case shardCountMismatch(requested: Int, stored: Int, prefix: String)
  /// The prefix's stored shard count changed under a running command: Redis lost its data
  /// (`FLUSHALL`, a restart without persistence) and another command created the prefix again,
  /// with `stored` shards, before one that runs with `running` stored its count back.
  case shardCountChanged(stored: Int, running: Int, prefix: String)
  /// Redis refused to store anything: it is out of memory (`maxmemory` reached under the
  /// `noeviction` policy). A temporary failure: the same command can succeed once it has room.
  case outOfMemory(RedisEndpoint, String)
  /// The prefix holds a configuration this version cannot read.
  case foreignConfiguration(prefix: String, reason: String)

  /// One line, without `Error: `.
  package var description: String {
    switch self {
    case .invalidPrefix(let prefix):
      "invalid --redis-prefix '\(prefix)': use 1 to 64 letters, digits, '-', '_', '.' or ':'"
    case .unreachable(let endpoint, .unexpectedReply(let command, let reply, let expected)):
      "cannot use Redis at \(endpoint): "
        + "\(RESPError.unexpectedReply(command: command, reply: reply, expected: expected))"
    case .unreachable(let endpoint, let error):
      "cannot reach Redis at \(endpoint): \(error)"
    case .shardCountMismatch(let requested, let stored, let prefix):
      "--shards \(requested) differs from the \(stored) shards '\(prefix)' was created with; "
        + "use --shards \(stored), or another --redis-prefix"
    case .shardCountChanged(let stored, let running, let prefix):
      "'\(prefix):config' now says \(stored) shards, this command runs with \(running): Redis lost its data and "
        + "another command created '\(prefix)' again; restart every command on it to use \(stored) shards"
    case .outOfMemory(let endpoint, let message):
      "Redis at \(endpoint) is out of memory (\(message)); free memory there or raise its maxmemory, then run this "
        + "again"
    case .foreignConfiguration(let prefix, let reason):
      "'\(prefix):config' is not a stream-search configuration (\(reason)); use another --redis-prefix"
    }
  }
}
