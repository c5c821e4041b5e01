// One reply of a Redis server in RESP2, the protocol Redis speaks unless a client asks for
// another: what the parser builds and what callers read.

/// A reply, as the server sent it.
///
/// Bulk strings are bytes (Redis values are binary-safe); ``string`` reads one as UTF-8. An error
/// reply (`-ERR …`) is a value too, not a thrown error: in a pipeline one command can fail while
/// the others succeed, and the caller decides what a failure means.
public enum RESPValue: Sendable, Hashable {
  /// `+OK`: a short status line.
  case simpleString(String)
  /// `-ERR unknown command`: the server refused this one command.
  case error(String)
  /// `:42`.
  case integer(Int64)
  /// `$3\r\nabc`: bytes.
  case bulkString([UInt8])
  /// `$-1` or `*-1`: no value (a missing key, a timed-out blocking read).
  case null
  /// `*2\r\n…`: replies in order, which may themselves be arrays.
  case array([RESPValue])

  /// The text of a simple or bulk string (bulk bytes decoded as UTF-8, invalid bytes replaced);
  /// nil for any other reply.
  public var string: String? {
    switch self {
    case .simpleString(let text): text
    case .bulkString(let bytes): String(decoding: bytes, as: UTF8.self)
    default: nil
    }
  }

  /// The number of an integer reply, or of a bulk or simple string that holds only a decimal
  /// integer (Lua scripts and `GET` return numbers that way); nil otherwise.
  public var integer: Int64? {
    switch self {
    case .integer(let value): value
    case .bulkString, .simpleString: string.flatMap { Int64($0) }
    default: nil
    }
  }

  /// The elements of an array reply; nil for any other reply (`*-1` included).
  public var array: [RESPValue]? {
    if case .array(let elements) = self { elements } else { nil }
  }

  /// The message of an error reply; nil for any other reply.
  public var errorMessage: String? {
    if case .error(let message) = self { message } else { nil }
  }

  /// True for an error reply that says the server cannot answer yet rather than that the
  /// command is wrong: `LOADING`, `BUSY`, `TRYAGAIN`, `MASTERDOWN`, `CLUSTERDOWN`.
  public var isNotReadyError: Bool {
    guard let message = errorMessage else { return false }
    let code = message.prefix { $0 != " " }
    return ["LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN", "CLUSTERDOWN"].contains(code)
  }

  /// True for `$-1` and `*-1`.
  public var isNull: Bool { self == .null }
}
