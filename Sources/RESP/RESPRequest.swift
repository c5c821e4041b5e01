// Many commands encoded into one buffer as they are added, for a long pipeline: each argument's
// bytes go straight into the request, with no array made per argument or per command.

/// Commands to send in one round trip, already encoded.
///
/// Useful where a pipeline carries thousands of commands (appending keystrokes, committing
/// events): ``RESPCommand`` keeps each argument as an array of its own, which costs an allocation
/// per argument.
///
/// ```swift
/// var request = RESPRequest()
/// request.append("XADD", "keys", "*", "term", "taylor")
/// request.append(RESPCommand("PING"))
/// let replies = try connection.pipeline(request)   // two replies, in order
/// ```
///
/// Arguments are binary-safe: a `[UInt8]` argument is sent as it is, a `String` as its UTF-8.
public struct RESPRequest: Sendable {
  /// The bytes on the wire.
  public private(set) var encoded: [UInt8] = []
  /// The commands in it: the replies to wait for.
  public private(set) var count = 0
  /// What each command is to be answered with, in order: every reply is checked against it.
  private(set) var expectations: [ReplyExpectation] = []

  /// An empty request.
  public init() {}

  /// Appends a command from its name and arguments.
  public mutating func append(_ name: String, _ arguments: any RESPArgument...) {
    append(name, arguments: arguments)
  }

  /// Appends a command from its name and a list of arguments built elsewhere.
  public mutating func append(_ name: String, arguments: [any RESPArgument]) {
    appendHeader(arguments.count + 1)
    name.appendRESPBulkString(to: &encoded)
    for argument in arguments { argument.appendRESPBulkString(to: &encoded) }
    // A long request repeats one command: its expectation is looked up once.
    if let last = expectations.last, last.name == name, !last.dependsOnArguments {
      expectations.append(last)
    } else {
      expectations.append(ReplyExpectation(name: name) { arguments.first?.respBytes })
    }
    count += 1
  }

  /// Appends a command made beforehand.
  public mutating func append(_ command: RESPCommand) {
    command.encode(into: &encoded)
    expectations.append(ReplyExpectation(name: command.name) { command.arguments.dropFirst().first })
    count += 1
  }

  /// Appends every command of `other`, in order.
  public mutating func append(contentsOf other: RESPRequest) {
    encoded.append(contentsOf: other.encoded)
    expectations.append(contentsOf: other.expectations)
    count += other.count
  }

  /// Reserves room for `byteCount` more bytes.
  public mutating func reserveCapacity(_ byteCount: Int) {
    encoded.reserveCapacity(encoded.count + byteCount)
  }

  private mutating func appendHeader(_ argumentCount: Int) {
    encoded.append(UInt8(ascii: "*"))
    RESPDecimal.append(argumentCount, to: &encoded)
    encoded.append(0x0D)
    encoded.append(0x0A)
  }
}

/// Writes numbers in decimal without making a string.
enum RESPDecimal {
  static func append(_ value: Int, to bytes: inout [UInt8]) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      // The magnitude of Int.min does not fit an Int: write it from the unsigned value.
      appendMagnitude(value.magnitude, to: &bytes)
    } else {
      appendMagnitude(UInt(value), to: &bytes)
    }
  }

  private static func appendMagnitude(_ value: UInt, to bytes: inout [UInt8]) {
    guard value >= 10 else {
      bytes.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    appendMagnitude(value / 10, to: &bytes)
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// Appends `$<count>\r\n`, the `bytes` themselves, then `\r\n`: one bulk string.
  static func appendBulk(_ content: some Collection<UInt8>, count: Int, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "$"))
    append(count, to: &bytes)
    bytes.append(0x0D)
    bytes.append(0x0A)
    bytes.append(contentsOf: content)
    bytes.append(0x0D)
    bytes.append(0x0A)
  }
}
