// Which argument of a command is the key that routes it in a cluster. Most commands name their
// key first; scripts after their key count, stream reads after `STREAMS`, container commands after
// their subcommand; server commands have none and may go to any node.

/// The routing key of a command, as Redis Cluster clients find it.
///
/// ```swift
/// ClusterKey.of(RESPCommand("XADD", "{p:3}:keys", "*", "term", "t").arguments)        // "{p:3}:keys"
/// ClusterKey.of(RESPCommand("EVALSHA", "f00d", 2, "{p:3}:lease", "{p:3}:fence").arguments)  // "{p:3}:lease"
/// ClusterKey.of(RESPCommand("TIME").arguments)                                         // nil
/// ```
public enum ClusterKey {
  /// The first key of the command whose arguments (name first) are `arguments`; nil for a
  /// command that names none (it may run on any node).
  public static func of(_ arguments: [[UInt8]]) -> [UInt8]? {
    guard let name = arguments.first else { return nil }
    let upper = String(decoding: name.prefix(32), as: UTF8.self).uppercased()
    if keyless.contains(upper) { return nil }
    switch upper {
    case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO":
      guard arguments.count > 3, let count = Int(String(decoding: arguments[2], as: UTF8.self)), count > 0 else {
        return nil
      }
      return arguments[3]
    case "XREAD", "XREADGROUP":
      guard
        let streams = arguments.firstIndex(where: { String(decoding: $0, as: UTF8.self).uppercased() == "STREAMS" }),
        streams + 1 < arguments.count
      else { return nil }
      return arguments[streams + 1]
    case "XGROUP", "XINFO", "OBJECT", "MEMORY":
      return arguments.count > 2 ? arguments[2] : nil
    default:
      return arguments.count > 1 ? arguments[1] : nil
    }
  }

  /// The slot of the command whose arguments are `arguments`; nil when it names no key.
  public static func slot(of arguments: [[UInt8]]) -> Int? {
    of(arguments).map { ClusterSlot.of(bytes: $0) }
  }

  private static let keyless: Set<String> = [
    "PING", "ECHO", "TIME", "INFO", "CLUSTER", "SCRIPT", "FUNCTION", "MULTI", "EXEC", "DISCARD", "UNWATCH",
    "ASKING", "READONLY", "READWRITE", "CLIENT", "CONFIG", "DBSIZE", "WAIT", "AUTH", "SELECT", "HELLO", "COMMAND",
    "FLUSHALL", "FLUSHDB", "SAVE", "BGSAVE", "LASTSAVE", "ROLE", "DEBUG", "SLOWLOG", "LATENCY", "RANDOMKEY",
  ]
}
