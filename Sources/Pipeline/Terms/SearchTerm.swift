// The search field's text made fit for searching: trimmed, inner whitespace collapsed, and a
// case-folded key for the cache and distinct-until-changed. Runs once per keystroke, so it is one
// pass over the UTF-8 bytes with no Foundation and no allocation when the text is already tidy.

/// A search term: what the field holds, trimmed and collapsed, plus the key that identifies it.
///
/// Useful for deciding, per keystroke, whether the text changed in a way that matters (compare
/// `key`s), whether the field was cleared (`isCleared`) and whether it is long enough to search.
///
/// ```swift
/// let term = SearchTerm("  Taylor\u{A0}\tSwift ")
/// let shown = term.text  // "Taylor Swift" (shown, and sent in the request)
/// let key = term.key     // "taylor swift" (the cache key and the distinct-until-changed key)
/// ```
///
/// Whitespace is every Unicode `White_Space` scalar: the ASCII ones (space, tab, LF, VT, FF, CR),
/// U+0085, no-break space U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
/// Equality compares both `text` and `key`; to ask "same search?", compare `key`s.
public struct SearchTerm: Sendable, Hashable {
  /// The text without leading or trailing whitespace, each inner run of whitespace one space.
  public let text: String
  /// `text` case-folded with `lowercased()` (full Unicode lowercase mapping, locale-independent):
  /// "Straße" stays "straße" and "İ" becomes "i̇". Used as the cache and distinct key.
  public let key: String

  /// Makes a term from the field's whole text as typed.
  public init(_ raw: String) {
    let text = SearchTerm.normalized(raw)
    self.text = text
    self.key = SearchTerm.folded(text)
  }

  /// True when the field holds nothing but whitespace: the user cleared it.
  public var isCleared: Bool { text.isEmpty }

  /// True when `text` has fewer than `minimumLength` Characters (grapheme clusters, so "é" and
  /// "👍🏽" count one each). A cleared term is below any positive minimum.
  public func isBelow(minimumLength: Int) -> Bool {
    if minimumLength <= 0 { return false }
    // A Character takes at least one UTF-8 byte, so few bytes settles it without counting.
    if text.utf8.count < minimumLength { return true }
    // Any byte at all is at least one Character: the default minimum needs nothing more.
    if minimumLength == 1 { return false }
    // ASCII other than CR is one Character per byte, and one followed by ASCII ends its
    // Character there: when the first `minimumLength` bytes are such and so is the byte after
    // them (if any), they are `minimumLength` Characters. Every keystroke asks, and counting
    // Characters was a visible part of its cost.
    var text = text
    let asciiPrefix = text.withUTF8 { bytes in
      bytes.prefix(minimumLength + 1).allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }
    if asciiPrefix { return false }
    var count = 0
    for _ in text {
      count += 1
      if count >= minimumLength { return false }
    }
    return true
  }

  // MARK: - Normalization

  /// `text.lowercased()`, without its cost when `text` is ASCII: as is when it has no capital
  /// letter (no copy), else by a byte map.
  static func folded(_ text: String) -> String {
    var text = text
    let ascii: String?? = text.withUTF8 { bytes in
      var capitals = false
      for byte in bytes {
        if byte >= 0x80 { return .none }
        if byte >= 0x41 && byte <= 0x5A { capitals = true }
      }
      guard capitals else { return .some(nil) }
      return String(unsafeUninitializedCapacity: bytes.count) { output in
        for index in 0..<bytes.count {
          let byte = bytes[index]
          output[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
        return bytes.count
      }
    }
    switch ascii {
    case .none: return text.lowercased()  // non-ASCII: the full Unicode mapping
    case .some(.none): return text  // ASCII without capitals: already folded
    case .some(.some(let lowered)): return lowered
    }
  }

  /// `raw` trimmed and collapsed; `raw` itself (no copy) when it is already so.
  static func normalized(_ raw: String) -> String {
    var raw = raw
    return raw.withUTF8 { bytes in
      if isTidy(bytes) { return nil }
      return String(unsafeUninitializedCapacity: bytes.count) { output in collapse(bytes, into: output) }
    } ?? raw
  }

  /// The length in bytes of the whitespace scalar starting at `index`, or 0 when it is not one.
  @inline(__always)
  static func whitespaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    let byte = bytes[index]
    if byte < 0x80 { return byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) ? 1 : 0 }
    let remaining = bytes.count - index
    switch byte {
    case 0xC2:
      // U+0085 next line, U+00A0 no-break space.
      guard remaining >= 2 else { return 0 }
      return bytes[index + 1] == 0x85 || bytes[index + 1] == 0xA0 ? 2 : 0
    case 0xE1:
      // U+1680 ogham space mark.
      guard remaining >= 3 else { return 0 }
      return bytes[index + 1] == 0x9A && bytes[index + 2] == 0x80 ? 3 : 0
    case 0xE2:
      guard remaining >= 3 else { return 0 }
      let second = bytes[index + 1]
      let third = bytes[index + 2]
      // U+2000–U+200A spaces, U+2028/U+2029 separators, U+202F narrow no-break space.
      if second == 0x80 { return third <= 0x8A || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0 }
      // U+205F medium mathematical space.
      return second == 0x81 && third == 0x9F ? 3 : 0
    case 0xE3:
      // U+3000 ideographic space.
      guard remaining >= 3 else { return 0 }
      return bytes[index + 1] == 0x80 && bytes[index + 2] == 0x80 ? 3 : 0
    default:
      return 0
    }
  }

  /// True when no leading, trailing, doubled or non-space whitespace is present.
  static func isTidy(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    var previousWasSpace = true  // so that leading whitespace counts as untidy
    while index < bytes.count {
      let byte = bytes[index]
      if byte > 0x20 && byte < 0x80 {
        previousWasSpace = false
        index += 1
        continue
      }
      let length = whitespaceLength(bytes, at: index)
      if length == 0 {
        previousWasSpace = false
        index += 1
      } else {
        if previousWasSpace || byte != 0x20 { return false }
        previousWasSpace = true
        index += 1
      }
    }
    return !previousWasSpace || bytes.isEmpty
  }

  /// Writes the collapsed form of `bytes` into `output`; returns the number of bytes written.
  static func collapse(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
    var written = 0
    var index = 0
    var pendingSpace = false
    while index < bytes.count {
      let length = whitespaceLength(bytes, at: index)
      if length > 0 {
        pendingSpace = written > 0
        index += length
        continue
      }
      if pendingSpace {
        output[written] = 0x20
        written += 1
        pendingSpace = false
      }
      output[written] = bytes[index]
      written += 1
      index += 1
    }
    return written
  }
}
