// What hand-written JSON needs to know about strings: which bytes must be escaped, and how.
// Hand-written because event encoding is a hot path and JSONEncoder/JSONSerialization cost ten
// times as much and cannot fix the field order; `JSONCursor` does the writing.

/// The escaping rules of JSON strings.
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
}
