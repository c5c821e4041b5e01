// Splits a stream of bytes into numbered lines: the pure, I/O-free core of both line readers.
// Hot path (10-million-line pipes): newlines are found with memchr and complete lines are
// decoded straight out of the caller's buffer; only a line split across reads is copied.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns chunks of bytes, as they come from `read(2)`, into ``InputLine``s.
///
/// Useful wherever bytes arrive in pieces: feed every chunk to `append(_:into:)`
/// and, at the end of the input, call ``finish(into:)`` for a last line without a newline.
///
/// ```swift
/// var splitter = LineSplitter()
/// var lines: [InputLine] = []
/// splitter.append(Array("a\r\nb".utf8), into: &lines)  // lines: [1: "a"]
/// splitter.finish(into: &lines)                        // lines: [1: "a", 2: "b"]
/// ```
///
/// The rules it splits by are ``InputLine``'s.
package struct LineSplitter: Sendable {
  /// The longest line, in bytes without its terminator, delivered as text.
  package let maxLineLength: Int

  /// The bytes of a line that began in an earlier chunk; never more than `maxLineLength + 1`
  /// (the `+ 1` is a `\r` that may turn out to precede `\n`).
  private var pending: [UInt8] = []
  /// While discarding an over-long line: how many of its bytes have been seen.
  private var discardedCount: Int?
  /// Whether the last discarded byte was `\r`, which is not counted if a `\n` follows.
  private var discardedEndsInReturn = false
  private var nextNumber: Int
  /// How many bytes of a byte-order mark the input has begun with; nil once past the start.
  private var markMatched: Int? = 0
  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Creates a splitter that numbers lines from `firstLineNumber` and reports lines longer than
  /// `maxLineLength` bytes (``InputLine/defaultMaxLength`` unless given; a negative value counts as 0)
  /// as too long.
  package init(maxLineLength: Int = InputLine.defaultMaxLength, firstLineNumber: Int = 1) {
    self.maxLineLength = max(0, maxLineLength)
    self.nextNumber = firstLineNumber
  }

  /// The number the next completed line will get.
  package var nextLineNumber: Int { nextNumber }

  /// Appends to `lines` every line that `bytes` completes, keeping an unfinished last line for
  /// the next call.
  package mutating func append(_ bytes: UnsafeRawBufferPointer, into lines: inout [InputLine]) {
    var start = 0
    while start < bytes.count {
      var consumed = 0
      _ = nextLine(in: UnsafeRawBufferPointer(rebasing: bytes[start...]), consumed: &consumed) {
        lines.append($0.inputLine)
      }
      start += consumed
    }
  }

  /// Reads the first line that `bytes` completes with `read`, its bytes lent for the call only,
  /// and sets `consumed` to how many bytes of `bytes` it took (up to its newline); false when
  /// `bytes` completes no line, and then all of them are kept for the next call.
  ///
  /// The one-line-at-a-time core: a reader that parses each line straight from its bytes makes
  /// no `String` for a line it does not need as text.
  ///
  /// `read` is a closure rather than a generic transform: generic code across modules runs
  /// unspecialised, copying its result through value witnesses on every line.
  package mutating func nextLine(
    in bytes: UnsafeRawBufferPointer, consumed: inout Int, _ read: (LineBytes) -> Void
  ) -> Bool {
    consumed = bytes.count
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
    let end = bytes.count
    var start = 0
    if markMatched != nil {
      start = skipByteOrderMark(bytes)
      if markMatched != nil { return false }  // The chunk ended inside what may still be a mark.
    }
    guard let found = memchr(base + start, 0x0A, end - start) else {
      absorb(UnsafeRawBufferPointer(start: base + start, count: end - start))
      return false
    }
    let newline = base.distance(to: UnsafeRawPointer(found))
    consumed = newline + 1
    let segment = UnsafeRawBufferPointer(start: base + start, count: newline - start)
    if pending.isEmpty && discardedCount == nil {
      // The common case: the whole line is in this chunk, so it is never copied.
      emit(segment, strippingReturn: true, read)
      return true
    }
    absorb(segment)
    completePending(strippingReturn: true, read)
    return true
  }

  /// Appends to `lines` every line that `bytes` completes; a convenience for byte collections.
  package mutating func append(_ bytes: some Sequence<UInt8>, into lines: inout [InputLine]) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      append(UnsafeRawBufferPointer(buffer), into: &lines)
    }
    if done == nil {
      Array(bytes).withUnsafeBytes { append($0, into: &lines) }
    }
  }

  /// Appends the last line if the input did not end with a newline; call it at the end of the
  /// input. A `\r` at the very end is kept, since no `\n` follows it. Numbering goes on, so the
  /// splitter can be fed again (a FIFO followed across writers).
  package mutating func finish(into lines: inout [InputLine]) {
    _ = finish { lines.append($0.inputLine) }
  }

  /// Reads the last line with `read` if the input did not end with a newline; false if it did.
  /// See ``finish(into:)``.
  package mutating func finish(_ read: (LineBytes) -> Void) -> Bool {
    if let matched = markMatched {
      // The input ended inside the beginning of a mark: those bytes were text after all.
      markMatched = nil
      Self.byteOrderMark[..<matched].withUnsafeBytes { absorb($0) }
    }
    guard !pending.isEmpty || discardedCount != nil else { return false }
    completePending(strippingReturn: false, read)
    return true
  }

  /// At the start of the input: consumes the bytes of `bytes` that continue a byte-order mark and
  /// returns where the text begins. `markMatched` becomes nil once the start is settled; a
  /// partial mark followed by other bytes is given back as the start of the first line.
  private mutating func skipByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> Int {
    var matched = markMatched ?? 0
    var index = 0
    while index < bytes.count, matched < Self.byteOrderMark.count {
      guard bytes[index] == Self.byteOrderMark[matched] else {
        markMatched = nil
        Self.byteOrderMark[..<matched].withUnsafeBytes { absorb($0) }
        return index
      }
      matched += 1
      index += 1
    }
    markMatched = matched == Self.byteOrderMark.count ? nil : matched
    return index
  }

  /// Keeps the bytes of an unfinished line, or only counts them once it is too long.
  private mutating func absorb(_ segment: UnsafeRawBufferPointer) {
    if let count = discardedCount {
      discardedCount = count + segment.count
      if let last = segment.last { discardedEndsInReturn = last == 0x0D }
    } else if pending.count + segment.count > maxLineLength + 1 {
      discardedCount = pending.count + segment.count
      discardedEndsInReturn = (segment.last ?? pending.last) == 0x0D
      pending = []  // Give back the memory of the abandoned prefix.
    } else {
      pending.append(contentsOf: segment)
    }
  }

  private mutating func completePending(strippingReturn: Bool, _ read: (LineBytes) -> Void) {
    if let count = discardedCount {
      let length = strippingReturn && discardedEndsInReturn ? count - 1 : count
      discardedCount = nil
      discardedEndsInReturn = false
      read(LineBytes(number: takeNumber(), content: .tooLong(byteCount: length)))
      return
    }
    pending.withUnsafeBytes { emit($0, strippingReturn: strippingReturn, read) }
    // Keep a small buffer for the next split line; release one that grew large.
    if pending.capacity > 1 << 16 { pending = [] } else { pending.removeAll(keepingCapacity: true) }
  }

  private mutating func emit(
    _ line: UnsafeRawBufferPointer, strippingReturn: Bool, _ read: (LineBytes) -> Void
  ) {
    var length = line.count
    if strippingReturn, length > 0, line[length - 1] == 0x0D { length -= 1 }
    let number = takeNumber()
    guard length <= maxLineLength else {
      return read(LineBytes(number: number, content: .tooLong(byteCount: length)))
    }
    let content = UnsafeRawBufferPointer(rebasing: line[..<length])
    let bytes = content.bindMemory(to: UInt8.self)
    // Most lines are ASCII, which is valid UTF-8: checked eight bytes at a time, with no copy.
    if Self.isASCII(content) { return read(LineBytes(number: number, content: .text(bytes, decoded: nil))) }
    let text = String(decoding: content, as: UTF8.self)
    guard Self.holds(text, exactly: content) else {
      return read(LineBytes(number: number, content: .invalidUTF8(byteCount: length)))
    }
    return read(LineBytes(number: number, content: .text(bytes, decoded: text)))
  }

  /// Whether every byte of `bytes` is below 0x80.
  private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var index = 0
    var bits: UInt64 = 0
    while index + 8 <= bytes.count {
      bits |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < bytes.count {
      bits |= UInt64(bytes[index])
      index += 1
    }
    return bits & 0x8080_8080_8080_8080 == 0
  }

  /// Whether `text`, decoded from `bytes`, holds exactly those bytes, i.e. they were valid UTF-8.
  ///
  /// `String(decoding:as:)` validates with the standard library's fast path and replaces invalid
  /// sequences with U+FFFD, so its bytes equal the input exactly when the input was valid.
  /// `String(validating:as:)` answers the same question but, being generic over any sequence,
  /// measured 5 to 6 times slower per line, which matters on 10-million-line pipes.
  private static func holds(_ text: String, exactly bytes: UnsafeRawBufferPointer) -> Bool {
    guard text.utf8.count == bytes.count else { return false }
    let same = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
      guard let decoded = utf8.baseAddress, let original = bytes.baseAddress else { return true }
      return memcmp(decoded, original, bytes.count) == 0
    }
    return same ?? text.utf8.elementsEqual(bytes)
  }

  private mutating func takeNumber() -> Int {
    defer { nextNumber += 1 }
    return nextNumber
  }
}
