// Turns the bytes read from a terminal into key presses. Reads may split a UTF-8 character or an
// escape sequence anywhere: the decoder keeps the incomplete tail until the next read, and
// `flushPending()` settles it when no more bytes come (a lone Esc is then the Esc key).

/// Decodes terminal input, one read at a time.
///
/// - Element: ``decode(_:)`` returns the keys completed by the bytes so far, in order; text that
///   arrived in one read comes out as one ``Key/text(_:)``.
/// - Incomplete input: an escape sequence or UTF-8 character cut by the end of a read stays
///   pending (``isPending``) and completes with the next read.
/// - Timeout: the caller decides when to stop waiting for the rest (the reader waits 50 ms, as
///   curses' ESCDELAY does) and calls ``flushPending()``: a lone Esc becomes ``Key/escape``,
///   anything else pending is dropped.
/// - Bad input: invalid UTF-8 bytes and unknown escape sequences (Alt-letters, function keys) are
///   skipped; nothing the terminal sends can make it fail.
struct KeyDecoder: Sendable {
  /// Bytes of an incomplete key, kept until the next read.
  private var pending: [UInt8] = []

  /// Longest escape sequence kept while waiting for its final byte; longer ones are dropped.
  private static let longestSequence = 32

  /// True when the last read ended inside a key.
  var isPending: Bool { !pending.isEmpty }

  /// The keys that `bytes`, after what was pending, complete.
  mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      guard let (key, length) = Self.key(in: pending, at: index) else { break }
      index += length
      guard let key else { continue }
      if case .text(let more) = key, case .text(let text)? = keys.last {
        keys[keys.count - 1] = .text(text + more)
      } else {
        keys.append(key)
      }
    }
    pending.removeFirst(index)
    return keys
  }

  /// Settles what is pending once no more bytes came: a lone Esc is ``Key/escape``; an
  /// incomplete sequence or character is dropped.
  mutating func flushPending() -> [Key] {
    defer { pending.removeAll() }
    return pending == [0x1B] ? [.escape] : []
  }

  /// The key starting at `index` and how many bytes it takes (a nil key for skipped bytes), or
  /// nil when the bytes end before the key does.
  private static func key(in bytes: [UInt8], at index: Int) -> (Key?, Int)? {
    let byte = bytes[index]
    switch byte {
    case 0x1B:
      return escapeSequence(in: bytes, at: index)
    case 0x0D, 0x0A:
      return (.enter, 1)
    case 0x7F, 0x08:
      return (.backspace, 1)
    case 0x01...0x1A:
      // Ctrl-A is 1 … Ctrl-Z is 26; tab (Ctrl-I) has no use here.
      return (byte == 0x09 ? nil : .control(Character(Unicode.Scalar(byte + 0x60))), 1)
    case 0x20..<0x7F:
      return (.text(String(Unicode.Scalar(byte))), 1)
    case 0x80...:
      return utf8Character(in: bytes, at: index)
    default:
      // NUL and the other C0 controls (Ctrl-\, Ctrl-], …): nothing to do.
      return (nil, 1)
    }
  }

  /// `ESC [ … final`, `ESC O x`, or ESC before another byte (Alt-x, skipped with it).
  private static func escapeSequence(in bytes: [UInt8], at index: Int) -> (Key?, Int)? {
    guard index + 1 < bytes.count else { return nil }
    switch bytes[index + 1] {
    case UInt8(ascii: "["):
      var end = index + 2
      while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
      guard end < bytes.count else {
        return end - index > longestSequence ? (nil, end - index) : nil
      }
      let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
      return (csiKey(final: bytes[end], parameters: parameters), end - index + 1)
    case UInt8(ascii: "O"):
      guard index + 2 < bytes.count else { return nil }
      return (csiKey(final: bytes[index + 2], parameters: ""), 3)
    case 0x1B:
      // Esc pressed twice: the first is a key of its own.
      return (.escape, 1)
    default:
      return (nil, 2)
    }
  }

  /// The key a CSI or SS3 sequence ending in `final` names; modifiers (`1;5C`) are ignored.
  private static func csiKey(final: UInt8, parameters: String) -> Key? {
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "~"):
      switch parameters.split(separator: ";").first {
      case "1", "7": return .home
      case "4", "8": return .end
      case "3": return .delete
      default: return nil
      }
    default:
      return nil
    }
  }

  /// A UTF-8 encoded scalar as text; an invalid byte is skipped alone.
  private static func utf8Character(in bytes: [UInt8], at index: Int) -> (Key?, Int)? {
    let lead = bytes[index]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (nil, 1)
    }
    var available = 1
    while available < length, index + available < bytes.count {
      guard bytes[index + available] & 0xC0 == 0x80 else { return (nil, available) }
      available += 1
    }
    guard available == length else { return nil }
    var decoder = UTF8()
    var iterator = bytes[index..<(index + length)].makeIterator()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return (nil, length) }
    return (.text(String(scalar)), length)
  }
}
