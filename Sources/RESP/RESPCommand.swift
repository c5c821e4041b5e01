// A command as the client sends it: an array of bulk strings, the only request form Redis needs.

/// One command and its arguments, encoded as RESP (`*N` then `$len` and the bytes of each).
///
/// ```swift
/// let command = RESPCommand("XADD", "keys", "*", "term", "taylor")
/// // command.encoded == Array("*5\r\n$4\r\nXADD\r\n$4\r\nkeys\r\n$1\r\n*\r\n$4\r\nterm\r\n$6\r\ntaylor\r\n".utf8)
/// ```
///
/// Arguments are binary-safe: a `[UInt8]` argument is sent as it is, a `String` as its UTF-8.
public struct RESPCommand: Sendable, Hashable {
  /// The command's name and arguments, as bytes.
  public var arguments: [[UInt8]]

  /// A command from its name and arguments.
  public init(_ name: String, _ arguments: any RESPArgument...) {
    self.init(name, arguments: arguments)
  }

  /// A command from its name and a list of arguments built elsewhere.
  public init(_ name: String, arguments: [any RESPArgument]) {
    self.arguments = [Array(name.utf8)] + arguments.map(\.respBytes)
  }

  /// The command's name, as sent.
  public var name: String { String(decoding: arguments.first ?? [], as: UTF8.self) }

  /// The bytes on the wire.
  public var encoded: [UInt8] {
    var bytes: [UInt8] = []
    encode(into: &bytes)
    return bytes
  }

  /// Appends the bytes on the wire to `bytes`: a pipeline encodes every command into one buffer.
  public func encode(into bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "*"))
    bytes.append(contentsOf: String(arguments.count).utf8)
    bytes.append(contentsOf: [0x0D, 0x0A])
    for argument in arguments {
      bytes.append(UInt8(ascii: "$"))
      bytes.append(contentsOf: String(argument.count).utf8)
      bytes.append(contentsOf: [0x0D, 0x0A])
      bytes.append(contentsOf: argument)
      bytes.append(contentsOf: [0x0D, 0x0A])
    }
  }
}

/// A value that can be one argument of a ``RESPCommand`` or a ``RESPRequest``.
public protocol RESPArgument: Sendable {
  /// The bytes sent for it.
  var respBytes: [UInt8] { get }
  /// Appends it as a RESP bulk string (`$<length>\r\n<bytes>\r\n`) to `bytes`. The default
  /// writes ``respBytes``; the standard conformances write their bytes without a copy of their own.
  func appendRESPBulkString(to bytes: inout [UInt8])
}

extension RESPArgument {
  /// Appends ``respBytes`` as a RESP bulk string.
  public func appendRESPBulkString(to bytes: inout [UInt8]) {
    let content = respBytes
    RESPDecimal.appendBulk(content, count: content.count, to: &bytes)
  }
}

extension String: RESPArgument {
  /// The string's UTF-8.
  public var respBytes: [UInt8] { Array(utf8) }

  /// Appends the string's UTF-8 as a RESP bulk string.
  public func appendRESPBulkString(to bytes: inout [UInt8]) {
    RESPDecimal.appendBulk(utf8, count: utf8.count, to: &bytes)
  }
}

extension Substring: RESPArgument {
  /// The string's UTF-8.
  public var respBytes: [UInt8] { Array(utf8) }

  /// Appends the string's UTF-8 as a RESP bulk string.
  public func appendRESPBulkString(to bytes: inout [UInt8]) {
    RESPDecimal.appendBulk(utf8, count: utf8.count, to: &bytes)
  }
}

extension Array: RESPArgument where Element == UInt8 {
  /// The bytes themselves.
  public var respBytes: [UInt8] { self }

  /// Appends the bytes as a RESP bulk string.
  public func appendRESPBulkString(to bytes: inout [UInt8]) {
    RESPDecimal.appendBulk(self, count: count, to: &bytes)
  }
}

extension Int: RESPArgument {
  /// The number in decimal, as Redis reads numbers.
  public var respBytes: [UInt8] { Array(String(self).utf8) }

  /// Appends the number in decimal as a RESP bulk string.
  public func appendRESPBulkString(to bytes: inout [UInt8]) {
    // Its length first, counted, then its digits straight into the request: no array of its own.
    var length = self < 0 ? 2 : 1
    var rest = magnitude / 10
    while rest > 0 {
      length += 1
      rest /= 10
    }
    bytes.append(UInt8(ascii: "$"))
    RESPDecimal.append(length, to: &bytes)
    bytes.append(0x0D)
    bytes.append(0x0A)
    RESPDecimal.append(self, to: &bytes)
    bytes.append(0x0D)
    bytes.append(0x0A)
  }
}

extension Int64: RESPArgument {
  /// The number in decimal, as Redis reads numbers.
  public var respBytes: [UInt8] { Array(String(self).utf8) }
}
