// Turns the bytes a server sent into replies, a piece at a time, within ``RESPLimits``.
//
// Incremental: bytes are appended as they arrive and each complete reply is taken out with
// `next()`. Nothing is allocated on a length's say-so: a bulk string is copied only once all
// its bytes are here, and an array reserves at most a few slots whatever count it claims, so
// memory follows the bytes that really arrived, and those are bounded per reply.

/// A resumable RESP2 reply parser.
///
/// ```swift
/// var parser = RESPParser()
/// parser.append(Array("+OK\r\n:4".utf8))
/// let first = try parser.next()   // .simpleString("OK")
/// let second = try parser.next()  // nil: ":4" has no line end yet
/// parser.append(Array("2\r\n".utf8))
/// let third = try parser.next()   // .integer(42)
/// ```
///
/// - Element: ``next()`` returns each complete reply once, in order.
/// - Failure: a malformed or oversized reply throws ``RESPError/protocolViolation(_:)``; the
///   parser is then unusable (the byte stream has lost its framing) and keeps throwing.
public struct RESPParser: Sendable {
  /// The bounds every reply is checked against.
  public let limits: RESPLimits

  private var buffer: [UInt8] = []
  /// The first byte not yet consumed.
  private var start = 0
  /// Arrays of the current reply still waiting for elements, outermost first.
  private var open: [OpenArray] = []
  /// Bytes and values of the current reply consumed so far (its parts already parsed).
  private var replyBytes = 0
  private var replyValues = 0
  private var failure: String?

  private struct OpenArray: Sendable {
    var remaining: Int
    var elements: [RESPValue]
  }

  /// A parser with `limits`.
  public init(limits: RESPLimits = RESPLimits()) {
    self.limits = limits
  }

  /// Bytes received but not yet part of a returned reply.
  public var pendingByteCount: Int { buffer.count - start + replyBytes }

  /// True when no byte of a next reply has arrived.
  public var isIdle: Bool { buffer.count == start && open.isEmpty }

  /// Adds bytes received from the server.
  public mutating func append(_ bytes: some Collection<UInt8>) {
    if start > 0, start >= buffer.count / 2 {
      buffer.removeSubrange(0..<start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete reply, or nil when more bytes are needed.
  ///
  /// - Throws: ``RESPError/protocolViolation(_:)`` when the bytes are not RESP2, or a reply
  ///   exceeds ``limits``.
  public mutating func next() throws(RESPError) -> RESPValue? {
    if let failure { throw .protocolViolation(failure) }
    do throws(RESPError) {
      return try parse()
    } catch {
      if case .protocolViolation(let reason) = error { failure = reason }
      throw error
    }
  }

  private mutating func parse() throws(RESPError) -> RESPValue? {
    while true {
      guard let (scalar, end) = try scalar(at: start) else {
        if pendingByteCount > limits.maxReplyBytes {
          throw .protocolViolation("a reply longer than \(limits.maxReplyBytes) bytes")
        }
        return nil
      }
      replyBytes += end - start
      start = end
      replyValues += 1
      if replyValues > limits.maxValues {
        throw .protocolViolation("a reply of more than \(limits.maxValues) values")
      }
      if replyBytes > limits.maxReplyBytes {
        throw .protocolViolation("a reply longer than \(limits.maxReplyBytes) bytes")
      }
      var value: RESPValue
      switch scalar {
      case .value(let complete):
        value = complete
      case .arrayHeader(let count):
        if open.count + 1 > limits.maxDepth {
          throw .protocolViolation("arrays nested deeper than \(limits.maxDepth)")
        }
        // Reserve a little: the count is the server's claim, the elements are not here yet.
        var elements: [RESPValue] = []
        elements.reserveCapacity(min(count, 16))
        open.append(OpenArray(remaining: count, elements: elements))
        continue
      }
      // Hand the value to the arrays it completes, innermost first.
      while !open.isEmpty {
        open[open.count - 1].elements.append(value)
        open[open.count - 1].remaining -= 1
        guard open[open.count - 1].remaining == 0 else { break }
        value = .array(open.removeLast().elements)
      }
      if open.isEmpty {
        replyBytes = 0
        replyValues = 0
        return value
      }
    }
  }

  private enum Scalar {
    case value(RESPValue)
    /// `*N` with N ≥ 1: the elements follow.
    case arrayHeader(Int)
  }

  /// The value or array header starting at `index`, and the index after it; nil when its bytes
  /// have not all arrived.
  private func scalar(at index: Int) throws(RESPError) -> (Scalar, Int)? {
    guard index < buffer.count else { return nil }
    guard let (line, afterLine) = try line(after: index) else { return nil }
    switch buffer[index] {
    case UInt8(ascii: "+"):
      return (.value(.simpleString(String(decoding: buffer[line], as: UTF8.self))), afterLine)
    case UInt8(ascii: "-"):
      return (.value(.error(String(decoding: buffer[line], as: UTF8.self))), afterLine)
    case UInt8(ascii: ":"):
      guard let number = Self.decimal(buffer[line]) else {
        throw .protocolViolation("an integer reply that is not a decimal number")
      }
      return (.value(.integer(number)), afterLine)
    case UInt8(ascii: "$"):
      guard let length = Self.decimal(buffer[line]), length >= -1 else {
        throw .protocolViolation("a bulk string length that is not -1 or a count")
      }
      if length == -1 { return (.value(.null), afterLine) }
      guard length <= limits.maxBulkBytes else {
        throw .protocolViolation("a bulk string of \(length) bytes (at most \(limits.maxBulkBytes) accepted)")
      }
      let bodyEnd = afterLine + Int(length)
      guard bodyEnd + 2 <= buffer.count else { return nil }
      guard buffer[bodyEnd] == 0x0D, buffer[bodyEnd + 1] == 0x0A else {
        throw .protocolViolation("a bulk string not followed by CRLF")
      }
      return (.value(.bulkString(Array(buffer[afterLine..<bodyEnd]))), bodyEnd + 2)
    case UInt8(ascii: "*"):
      guard let count = Self.decimal(buffer[line]), count >= -1 else {
        throw .protocolViolation("an array length that is not -1 or a count")
      }
      if count == -1 { return (.value(.null), afterLine) }
      if count == 0 { return (.value(.array([])), afterLine) }
      guard count <= limits.maxArrayCount else {
        throw .protocolViolation("an array of \(count) elements (at most \(limits.maxArrayCount) accepted)")
      }
      return (.arrayHeader(Int(count)), afterLine)
    case let type:
      throw .protocolViolation("a reply starting with byte 0x\(String(type, radix: 16)) (not RESP2)")
    }
  }

  /// The line after the type byte at `index` (without CRLF) and the index after its CRLF; nil
  /// when the line has not ended yet.
  private func line(after index: Int) throws(RESPError) -> (Range<Int>, Int)? {
    let first = index + 1
    let scanEnd = min(buffer.count, first + limits.maxLineBytes + 2)
    var cursor = first
    while cursor < scanEnd {
      if buffer[cursor] == 0x0D {
        guard cursor + 1 < buffer.count else { return nil }
        guard buffer[cursor + 1] == 0x0A else { throw .protocolViolation("a CR not followed by LF") }
        return (first..<cursor, cursor + 2)
      }
      if buffer[cursor] == 0x0A { throw .protocolViolation("a line ending in LF without CR") }
      cursor += 1
    }
    if scanEnd - first > limits.maxLineBytes {
      throw .protocolViolation("a line longer than \(limits.maxLineBytes) bytes")
    }
    return nil
  }

  /// A strict decimal: an optional `-` then 1 to 19 digits, within Int64.
  static func decimal(_ bytes: ArraySlice<UInt8>) -> Int64? {
    var digits = bytes[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.count <= 19 else { return nil }
    var value: Int64 = 0
    for byte in digits {
      guard byte >= 0x30, byte <= 0x39 else { return nil }
      let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowAdd) = shifted.addingReportingOverflow(Int64(byte - 0x30))
      guard !overflowShift, !overflowAdd else { return nil }
      value = sum
    }
    return negative ? -value : value
  }
}
