// What each command can answer, by RESP2 type: the one table every reply is checked against.
// A reply is input; a server (or a proxy in front of it) that answers `XADD` with an integer is
// not a Redis this client can trust, and taking that integer for an entry id would lose data
// without a word.

/// The RESP2 types a reply may have, as a set.
///
/// ```swift
/// RESPReplyKinds.expected(for: RESPCommand("XADD", "k", "*", "f", "v").arguments)  // [.bulkString, .null]
/// RESPReplyKinds.expected(for: RESPCommand("EVALSHA", "f00d", 0).arguments)        // .any
/// ```
///
/// An error reply (`-ERR …`) is a valid answer to every command and is never refused. Commands
/// outside the table (scripts, whose replies are theirs to choose, among them) accept any type.
public struct RESPReplyKinds: OptionSet, Sendable, Hashable, CustomStringConvertible {
  /// The bits of the set.
  public let rawValue: UInt8

  /// A set from its bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `+OK`.
  public static let simpleString = RESPReplyKinds(rawValue: 1 << 0)
  /// `:42`.
  public static let integer = RESPReplyKinds(rawValue: 1 << 1)
  /// `$3\r\nabc`.
  public static let bulkString = RESPReplyKinds(rawValue: 1 << 2)
  /// `$-1` or `*-1`.
  public static let null = RESPReplyKinds(rawValue: 1 << 3)
  /// `*2\r\n…`.
  public static let array = RESPReplyKinds(rawValue: 1 << 4)
  /// Every type: the command is not checked.
  public static let any: RESPReplyKinds = [.simpleString, .integer, .bulkString, .null, .array]

  /// Whether `reply` is of one of these types (an error reply always is).
  public func admits(_ reply: RESPValue) -> Bool {
    switch reply {
    case .error: true
    case .simpleString: contains(.simpleString)
    case .integer: contains(.integer)
    case .bulkString: contains(.bulkString)
    case .null: contains(.null)
    case .array: contains(.array)
    }
  }

  /// `a bulk string or null`.
  public var description: String {
    let names: [(RESPReplyKinds, String)] = [
      (.simpleString, "a status"), (.integer, "an integer"), (.bulkString, "a bulk string"), (.null, "null"),
      (.array, "an array"),
    ]
    let present = names.filter { contains($0.0) }.map(\.1)
    guard present.count > 1 else { return present.first ?? "nothing" }
    return present.dropLast().joined(separator: ", ") + " or " + (present.last ?? "")
  }

  /// What the command whose name and arguments are `arguments` (as sent) can answer. Container
  /// commands (`CLIENT`, `XGROUP`, `SCRIPT`, `CONFIG`, `XINFO`) are looked up with their
  /// subcommand.
  public static func expected(for arguments: [[UInt8]]) -> RESPReplyKinds {
    guard let name = arguments.first else { return .any }
    let upper = String(decoding: name, as: UTF8.self).uppercased()
    return expected(name: upper, subcommand: containers.contains(upper) ? arguments.dropFirst().first : nil)
  }

  /// What command `name` (upper case) with its first argument `subcommand` (for a container
  /// command) can answer.
  static func expected(name: String, subcommand: [UInt8]?) -> RESPReplyKinds {
    guard containers.contains(name) else { return table[name] ?? .any }
    let sub = subcommand.map { String(decoding: $0, as: UTF8.self).uppercased() } ?? ""
    return table["\(name) \(sub)"] ?? .any
  }

  /// Whether `name` is in the table as written (names are upper case there).
  static func isKnown(_ name: String) -> Bool { table[name] != nil || containers.contains(name) }

  /// The commands whose reply depends on their first argument.
  static let containers: Set<String> = ["CLIENT", "XGROUP", "SCRIPT", "CONFIG", "XINFO"]

  private static let table: [String: RESPReplyKinds] = {
    var table: [String: RESPReplyKinds] = [:]
    let status = [
      "AUTH", "SELECT", "WATCH", "UNWATCH", "MULTI", "DISCARD", "FLUSHALL", "FLUSHDB", "MSET", "RENAME", "SETEX",
      "PSETEX", "LSET", "LTRIM", "SWAPDB", "TYPE", "XGROUP CREATE", "XGROUP SETID", "SCRIPT FLUSH", "CONFIG SET",
      "CONFIG RESETSTAT", "CLIENT SETNAME",
    ]
    let integers = [
      "DEL", "UNLINK", "EXISTS", "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT", "PERSIST", "TTL", "PTTL", "INCR",
      "INCRBY", "DECR", "DECRBY", "APPEND", "STRLEN", "SETNX", "MSETNX", "HSET", "HSETNX", "HDEL", "HLEN", "HEXISTS",
      "HINCRBY", "HSTRLEN", "LPUSH", "RPUSH", "LLEN", "LREM", "SADD", "SREM", "SCARD", "SISMEMBER", "ZCARD", "ZREM",
      "ZCOUNT", "ZREMRANGEBYSCORE", "ZREMRANGEBYRANK", "XACK", "XDEL", "XLEN", "XTRIM", "DBSIZE", "PUBLISH",
      "CLIENT ID", "CLIENT UNBLOCK", "XGROUP DESTROY", "XGROUP CREATECONSUMER", "XGROUP DELCONSUMER",
    ]
    let bulkOrNull = ["GET", "GETSET", "GETDEL", "HGET", "LINDEX", "ZSCORE", "XADD", "CLIENT GETNAME"]
    let bulk = ["ECHO", "INFO", "INCRBYFLOAT", "HINCRBYFLOAT", "SCRIPT LOAD", "CLIENT LIST", "CLIENT INFO"]
    let arrays = [
      "MGET", "HMGET", "HGETALL", "HKEYS", "HVALS", "KEYS", "SMEMBERS", "LRANGE", "ZRANGE", "ZRANGEBYSCORE",
      "ZREVRANGE", "ZREVRANGEBYSCORE", "ZPOPMIN", "ZPOPMAX", "XRANGE", "XREVRANGE", "XAUTOCLAIM", "XCLAIM",
      "XPENDING", "TIME", "SCAN", "HSCAN", "ZSCAN", "SSCAN", "CONFIG GET", "SCRIPT EXISTS", "XINFO STREAM",
      "XINFO GROUPS", "XINFO CONSUMERS",
    ]
    let arrayOrNull = ["XREAD", "XREADGROUP", "EXEC", "BLPOP", "BRPOP", "BZPOPMIN", "BZPOPMAX"]
    for name in status { table[name] = .simpleString }
    for name in integers { table[name] = .integer }
    for name in bulkOrNull { table[name] = [.bulkString, .null] }
    for name in bulk { table[name] = .bulkString }
    for name in arrays { table[name] = .array }
    for name in arrayOrNull { table[name] = [.array, .null] }
    // `PING message` answers a bulk string; `SET … NX` null, `SET … GET` the old value; `ZADD …
    // INCR` the new score (null when NX or XX refused it).
    table["PING"] = [.simpleString, .bulkString]
    table["SET"] = [.simpleString, .null, .bulkString]
    table["ZADD"] = [.integer, .bulkString, .null]
    return table
  }()
}
