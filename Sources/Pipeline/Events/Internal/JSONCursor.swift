// The one place JSON is written byte by byte (events, items, recording lines): a pointer into bytes reserved beforehand for
// the most a value can take. An event is measured first (`JSONEventWriter.maximumLength`), then
// written in one pass with no capacity or uniqueness check per append: appending its fixed parts
// to an array one call at a time cost about 170 instructions a call, more than the writing.
// Every write still checks the end it was given: the measuring is hand-counted, and a bound that
// undercounts must cost a second pass, never a write past the bytes reserved.

/// Where the next byte of JSON output goes, up to an end that no write passes.
struct JSONCursor {
  /// The next byte to write.
  var position: UnsafeMutablePointer<UInt8>
  /// One past the last byte reserved.
  let end: UnsafeMutablePointer<UInt8>
  /// Whether a write did not fit: it and every write after it wrote nothing, and what was
  /// written is to be thrown away and written again with more room.
  private(set) var overflowed = false

  /// A cursor writing from `position` up to `end`.
  init(position: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) {
    self.position = position
    self.end = end
  }

  /// What `write` writes, in `bound` bytes reserved for it; should the bound be short (a
  /// defect of the measuring, which tests in debug builds catch), written again in twice the room.
  static func written(bound: Int, _ write: (inout JSONCursor) -> Void) -> [UInt8] {
    var room = bound
    while true {
      var overflowed = false
      let bytes = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
        guard let base = buffer.baseAddress else { return }
        var cursor = JSONCursor(position: base, end: base + buffer.count)
        write(&cursor)
        overflowed = cursor.overflowed
        count = overflowed ? 0 : cursor.position - base
      }
      assert(!overflowed || room > bound, "JSON outgrew its measured bound")
      if !overflowed { return bytes }
      room = max(room * 2, 64)
    }
  }

  /// Whether `count` more bytes fit; when they do not, the cursor is overflowed for good.
  @inline(__always)
  mutating func fits(_ count: Int) -> Bool {
    if !overflowed, end - position >= count { return true }
    overflowed = true
    return false
  }

  /// The most bytes `value` takes as a JSON string: its quotes, and every byte escaped as `\u00XX`.
  @inline(__always)
  static func maximumLength(ofString value: String) -> Int { 2 + 6 * value.utf8.count }

  /// The same for a field that may be absent.
  @inline(__always)
  static func maximumLength(ofString value: String?) -> Int { value.map { maximumLength(ofString: $0) } ?? 0 }

  /// The most bytes `integer(_:)` writes: 19 digits and a sign.
  static let integerLength = 20

  @inline(__always)
  mutating func byte(_ value: UInt8) {
    guard fits(1) else { return }
    position.pointee = value
    position += 1
  }

  /// ASCII text that needs no escaping (keys and their punctuation).
  @inline(__always)
  mutating func raw(_ text: StaticString) {
    let count = text.utf8CodeUnitCount
    guard fits(count) else { return }
    position.update(from: text.utf8Start, count: count)
    position += count
  }

  /// ASCII text that needs no escaping, known only at run time (enum names); its length counts
  /// once in the bound. Named apart from `raw(_:)`: a literal would take this overload, since
  /// a string literal is a `String` unless told otherwise, and it costs ten times more.
  mutating func ascii(_ text: String) {
    if text.utf8.withContiguousStorageIfAvailable({ copy($0) }) == nil {
      for byte in text.utf8 { self.byte(byte) }
    }
  }

  /// `value` in decimal.
  mutating func integer(_ value: Int) {
    if value < 0 { byte(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    let digits = Self.digitCount(magnitude)
    guard fits(digits) else { return }
    // Written from the last digit back, two at a time: half the divisions of one at a time.
    let last = position + digits
    var cursor = last
    while magnitude >= 100 {
      let pair = UInt32(truncatingIfNeeded: magnitude % 100)
      magnitude /= 100
      cursor -= 2
      cursor[0] = 0x30 | UInt8(truncatingIfNeeded: pair / 10)
      cursor[1] = 0x30 | UInt8(truncatingIfNeeded: pair % 10)
    }
    let first = UInt32(truncatingIfNeeded: magnitude)
    if first >= 10 {
      position[0] = 0x30 | UInt8(truncatingIfNeeded: first / 10)
      position[1] = 0x30 | UInt8(truncatingIfNeeded: first % 10)
    } else {
      position[0] = 0x30 | UInt8(truncatingIfNeeded: first)
    }
    position = last
  }

  /// How many decimal digits `value` has: 1 to 20.
  @inline(__always)
  private static func digitCount(_ value: UInt) -> Int {
    // Four digits a step: an id of ten digits takes two divisions instead of nine comparisons.
    var count = 1
    var rest = value
    while rest >= 10_000 {
      rest /= 10_000
      count &+= 4
    }
    if rest >= 100 {
      count &+= rest >= 1_000 ? 3 : 2
    } else if rest >= 10 {
      count &+= 1
    }
    return count
  }

  /// `value` in decimal.
  @inline(__always)
  mutating func integer(_ value: Int64) { integer(Int(value)) }

  /// `value`'s UTF-8 bytes as a JSON string.
  mutating func string(bytes value: UnsafeBufferPointer<UInt8>) {
    byte(UInt8(ascii: "\""))
    escaped(value)
    byte(UInt8(ascii: "\""))
  }

  /// `value` as a JSON string: quotes, backslashes and U+0000–U+001F escaped; everything else
  /// (Swift strings are valid Unicode, so valid UTF-8) copied as it is.
  mutating func string(_ value: borrowing String) {
    byte(UInt8(ascii: "\""))
    // Native strings hand out their bytes without a copy; others (bridged) are copied once.
    if value.utf8.withContiguousStorageIfAvailable({ escaped($0) }) == nil {
      let copy = Array(value.utf8)
      copy.withUnsafeBufferPointer { escaped($0) }
    }
    byte(UInt8(ascii: "\""))
  }

  /// `key` (the raw text up to the value, such as `,"term":`) and `value` as a JSON string;
  /// nothing when `value` is nil, so that the field is absent.
  mutating func field(_ key: StaticString, _ value: borrowing String?) {
    switch value {
    case .some(let text):
      raw(key)
      string(text)
    case .none:
      break
    }
  }

  /// Bytes copied as they are.
  @inline(__always)
  mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, fits(bytes.count) else { return }
    position.update(from: source, count: bytes.count)
    position += bytes.count
  }

  /// The UTF-8 bytes of a string, escaped where JSON needs it.
  private mutating func escaped(_ bytes: UnsafeBufferPointer<UInt8>) {
    // Nearly every string (titles, names, URLs) needs no escape: checked eight bytes at a time,
    // then copied at once.
    if !JSONBytes.needsEscaping(bytes) {
      copy(bytes)
      return
    }
    for byte in bytes {
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        self.byte(byte)
        continue
      }
      self.byte(UInt8(ascii: "\\"))
      if byte >= 0x20 {
        self.byte(byte)
      } else if JSONBytes.shortEscapes[Int(byte)] != 0 {
        self.byte(JSONBytes.shortEscapes[Int(byte)])
      } else {
        raw("u00")
        self.byte(JSONBytes.hexDigits[Int(byte >> 4)])
        self.byte(JSONBytes.hexDigits[Int(byte & 0xF)])
      }
    }
  }
}
