// The low-level pieces of hand-written JSON: escaped strings and integers appended to a byte
// buffer (items are written by `JSONItemWriter`). Hand-written because event encoding is a hot
// path (≈1 µs an event) and JSONEncoder/JSONSerialization cost ten times that and cannot fix the
// field order.

/// Appends JSON tokens to a byte buffer.
enum JSONBytes {
  /// The two-character escapes JSON has for some control characters; 0 means "use \u00XX".
  static let shortEscapes: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 0x20)
    table[0x08] = UInt8(ascii: "b")
    table[0x09] = UInt8(ascii: "t")
    table[0x0A] = UInt8(ascii: "n")
    table[0x0C] = UInt8(ascii: "f")
    table[0x0D] = UInt8(ascii: "r")
    return table
  }()

  static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Appends `value` as a JSON string: quotes, backslashes and U+0000–U+001F escaped; everything
  /// else (Swift strings are valid Unicode, so valid UTF-8) copied as is.
  static func appendString(_ value: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var value = value
    value.withUTF8 { bytes in
      // Nearly every string (titles, names, URLs) needs no escape: checked eight bytes at a
      // time, then copied at once.
      if needsEscaping(bytes) {
        appendEscaped(bytes, to: &output)
      } else {
        output.append(contentsOf: bytes)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// Whether `bytes` hold a quote, a backslash or a byte below 0x20.
  static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = 0
    while index + 8 <= bytes.count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      // The word tests for a byte below n, (x − n·ones) & ~x & highs, and for a byte equal to c,
      // the same with n = 1 on x ^ c·ones: exact about whether such a byte exists, since a
      // borrow between bytes only starts at one that matches.
      let control = (word &- ones &* 0x20) & ~word
      let quotes = word ^ (ones &* 0x22)
      let backslashes = word ^ (ones &* 0x5C)
      let equal = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
      if (control | equal) & highs != 0 { return true }
      index += 8
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
      index += 1
    }
    return false
  }

  /// The bytes of a string that needs escaping, escaped.
  private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    var runStart = 0
    for index in 0..<bytes.count {
      let byte = bytes[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
      if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
      runStart = index + 1
      output.append(UInt8(ascii: "\\"))
      if byte >= 0x20 {
        output.append(byte)
      } else if shortEscapes[Int(byte)] != 0 {
        output.append(shortEscapes[Int(byte)])
      } else {
        output.append(UInt8(ascii: "u"))
        output.append(contentsOf: [0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
      }
    }
    if runStart < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
  }

  /// Appends `key` (the raw text up to the value, such as `,"term":`) and `value` as a JSON string;
  /// nothing when `value` is nil, so that the field is absent.
  @inline(__always)
  static func appendField(_ key: StaticString, _ value: String?, to output: inout [UInt8]) {
    guard let value else { return }
    appendRaw(key, to: &output)
    appendString(value, to: &output)
  }

  /// Appends `value` in decimal.
  static func appendInteger<T: BinaryInteger>(_ value: T, to output: inout [UInt8]) {
    if value == 0 {
      output.append(0x30)
      return
    }
    // Work in magnitude so that Int64.min does not overflow on negation.
    var magnitude = value.magnitude
    if value < 0 { output.append(UInt8(ascii: "-")) }
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      while magnitude > 0 && count < buffer.count {
        buffer[count] = 0x30 + UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
        count += 1
      }
      for index in stride(from: count - 1, through: 0, by: -1) { output.append(buffer[index]) }
    }
  }

  /// Appends ASCII text that needs no escaping (keys, enum names, literals).
  @inline(__always)
  static func appendRaw(_ text: StaticString, to output: inout [UInt8]) {
    text.withUTF8Buffer { output.append(contentsOf: $0) }
  }

  /// Appends ASCII text that needs no escaping.
  @inline(__always)
  static func appendRaw(_ text: String, to output: inout [UInt8]) {
    output.append(contentsOf: text.utf8)
  }
}
