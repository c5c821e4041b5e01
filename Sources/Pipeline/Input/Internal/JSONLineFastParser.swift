// The fast path of input parsing: reads the common flat shape `{"at_ms": 123, "term": "…",
// "session": "…"}` straight from UTF-8 bytes, in any key order and with any whitespace, skipping
// unknown scalar fields. Anything it does not fully understand — nested values, repeated known
// keys, escaped keys, numbers other than plain non-negative integers, any syntax error, any
// wrong type — it hands back (nil) to `FoundationLineParser`, which is the reference. So when it
// answers, the answer is the one the reference would give, and it never has to word an error.

/// A non-recursive parser for flat JSON keystroke objects.
struct JSONLineFastParser {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// The keystroke in `bytes`, or nil when the line needs the full parser.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> LineReading? {
    var parser = JSONLineFastParser(bytes: bytes)
    return parser.parseObject()
  }

  /// JSON's whitespace: space, tab, LF, CR.
  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private enum Key { case term, at, session, other }

  private mutating func parseObject() -> LineReading? {
    skipWhitespace()
    guard consume(UInt8(ascii: "{")) else { return nil }
    var term: String?
    var at: Int64?
    var session: String?
    var seenAt = false
    var seenSession = false
    skipWhitespace()
    if !consume(UInt8(ascii: "}")) {
      while true {
        skipWhitespace()
        guard let key = parseKey() else { return nil }
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { return nil }
        skipWhitespace()
        switch key {
        case .term:
          guard term == nil, peek == UInt8(ascii: "\""), let value = parseString() else { return nil }
          term = value
        case .at:
          // `null` means absent, but a repeated key needs the reference's "last one wins".
          guard !seenAt else { return nil }
          seenAt = true
          if consumeLiteral("null") { break }
          guard let value = parseMilliseconds() else { return nil }
          at = value
        case .session:
          guard !seenSession else { return nil }
          seenSession = true
          if consumeLiteral("null") { break }
          guard peek == UInt8(ascii: "\""), let value = parseString() else { return nil }
          session = value
        case .other:
          guard skipScalar() else { return nil }
        }
        skipWhitespace()
        if consume(UInt8(ascii: ",")) { continue }
        guard consume(UInt8(ascii: "}")) else { return nil }
        break
      }
    }
    skipWhitespace()
    guard index == bytes.count, let term else { return nil }
    return .success(Keystroke(term: term, atMilliseconds: at, session: session))
  }

  // MARK: - Tokens

  private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while index < bytes.count, JSONLineFastParser.isWhitespace(bytes[index]) { index += 1 }
  }

  private mutating func consume(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard bytes.count - index >= count, matches(literal, at: index) else { return false }
    index += count
    return true
  }

  /// A key without escapes, classified; nil for escaped keys and syntax errors.
  private mutating func parseKey() -> Key? {
    guard consume(UInt8(ascii: "\"")) else { return nil }
    // The three known keys, closing quote included, are tried first with one comparison each:
    // scanning a key and then comparing it was a fifth of the fast path.
    if let key = knownKey() { return key }
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { break }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
      index += 1
    }
    guard index < bytes.count else { return nil }
    let length = index - start
    index += 1
    if length == 4 && matches("term", at: start) { return .term }
    if length == 5 && matches("at_ms", at: start) { return .at }
    if length == 7 && matches("session", at: start) { return .session }
    return .other
  }

  /// `term"`, `at_ms"` or `session"` at `index`, consumed; nil (and nothing consumed) for any
  /// other key.
  private mutating func knownKey() -> Key? {
    guard bytes.count - index >= 8, let base = bytes.baseAddress else { return nil }
    // Eight bytes are there to read, whichever key this is; little-endian, so the key's first
    // byte is the word's lowest.
    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian
    if word & 0xFF_FFFF_FFFF == Self.termWord {
      index += 5
      return .term
    }
    if word & 0xFFFF_FFFF_FFFF == Self.atWord {
      index += 6
      return .at
    }
    if word == Self.sessionWord {
      index += 8
      return .session
    }
    return nil
  }

  /// `term"`, `at_ms"` and `session"` as little-endian words, the first byte lowest.
  private static let termWord: UInt64 = 0x22_6d_72_65_74
  private static let atWord: UInt64 = 0x22_73_6d_5f_74_61
  private static let sessionWord: UInt64 = 0x22_6e_6f_69_73_73_65_73

  /// True when the bytes at `start` are `literal`'s (the caller has checked the length).
  @inline(__always)
  private func matches(_ literal: StaticString, at start: Int) -> Bool {
    let pointer = literal.utf8Start
    for offset in 0..<literal.utf8CodeUnitCount where bytes[start + offset] != pointer[offset] { return false }
    return true
  }

  /// A plain non-negative integer up to 2^53 with nothing after it that makes it another number.
  private mutating func parseMilliseconds() -> Int64? {
    let start = index
    var value: Int64 = 0
    while index < bytes.count {
      let digit = bytes[index] &- 0x30
      guard digit < 10 else { break }
      // 16 digits cannot overflow Int64; longer numbers go to the reference.
      guard index - start < 16 else { return nil }
      value = value &* 10 &+ Int64(digit)
      index += 1
    }
    let digits = index - start
    guard digits > 0, !(digits > 1 && bytes[start] == 0x30), value <= InputLineParser.maximumMilliseconds else {
      return nil
    }
    if index < bytes.count {
      let next = bytes[index]
      if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
    }
    return value
  }

  // MARK: - Strings

  /// A string value with its escapes decoded; nil for bad escapes, lone surrogates, raw control
  /// characters and a missing closing quote.
  private mutating func parseString() -> String? {
    guard consume(UInt8(ascii: "\"")) else { return nil }
    let start = index
    // Fast scan: most strings have no escapes and become a String in one copy.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return value
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { return nil }
      index += 1
    }
    guard index < bytes.count else { return nil }
    var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "\"") { return String(decoding: decoded, as: UTF8.self) }
      if byte < 0x20 { return nil }
      guard byte == UInt8(ascii: "\\") else {
        decoded.append(byte)
        continue
      }
      guard let escape = peek else { return nil }
      index += 1
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
      case UInt8(ascii: "b"): decoded.append(0x08)
      case UInt8(ascii: "f"): decoded.append(0x0C)
      case UInt8(ascii: "n"): decoded.append(0x0A)
      case UInt8(ascii: "r"): decoded.append(0x0D)
      case UInt8(ascii: "t"): decoded.append(0x09)
      case UInt8(ascii: "u"):
        guard let scalar = parseUnicodeEscape() else { return nil }
        if let encoded = UTF8.encode(scalar) { decoded.append(contentsOf: encoded) }
      default: return nil
      }
    }
    return nil
  }

  /// The scalar of `XXXX` (after `\u`), joining a surrogate pair; nil for lone surrogates.
  private mutating func parseUnicodeEscape() -> Unicode.Scalar? {
    guard let high = parseHex4() else { return nil }
    if high >= 0xDC00 && high <= 0xDFFF { return nil }
    guard high >= 0xD800 && high <= 0xDBFF else { return Unicode.Scalar(high) }
    guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = parseHex4(),
      low >= 0xDC00 && low <= 0xDFFF
    else { return nil }
    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
  }

  private mutating func parseHex4() -> UInt32? {
    guard bytes.count - index >= 4 else { return nil }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  // MARK: - Skipping unknown values

  /// Skips a string, number, `true`, `false` or `null`; false for anything else (nested values
  /// included) or a syntax error.
  private mutating func skipScalar() -> Bool {
    guard let byte = peek else { return false }
    switch byte {
    case UInt8(ascii: "\""): return parseString() != nil
    case UInt8(ascii: "t"): return consumeLiteral("true")
    case UInt8(ascii: "f"): return consumeLiteral("false")
    case UInt8(ascii: "n"): return consumeLiteral("null")
    default: return skipNumber()
    }
  }

  /// Skips a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  private mutating func skipNumber() -> Bool {
    _ = consume(UInt8(ascii: "-"))
    if consume(0x30) {
      // A leading zero stands alone.
    } else {
      guard skipDigits() else { return false }
    }
    if consume(UInt8(ascii: ".")) {
      guard skipDigits() else { return false }
    }
    if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
      if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
      guard skipDigits() else { return false }
    }
    return true
  }

  /// Skips one or more digits; false when there is none.
  private mutating func skipDigits() -> Bool {
    let start = index
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
    return index > start
  }
}
