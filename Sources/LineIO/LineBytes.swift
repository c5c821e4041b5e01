// One line as the splitter finds it, before any `String` is made: what a reader that parses lines
// straight from their bytes receives. The bytes are lent for the duration of one call.

/// A numbered line whose bytes are lent for the duration of the call that receives it.
///
/// The rules it is split and checked by are ``InputLine``'s; ``inputLine`` is the same line as an
/// ``InputLine``.
package struct LineBytes {
  /// What the line holds.
  package enum Content {
    /// Valid UTF-8 without the line terminator, possibly with NUL bytes; `decoded` is the text
    /// when it was already made to check a line that is not ASCII, else nil.
    case text(UnsafeBufferPointer<UInt8>, decoded: String?)
    /// Not valid UTF-8, with the number of bytes it held.
    case invalidUTF8(byteCount: Int)
    /// Longer than the reader's maximum, with the number of bytes it held; its bytes are gone.
    case tooLong(byteCount: Int)
  }

  /// The line's position in the input, from 1.
  package let number: Int
  /// What the line holds; its bytes are valid only during the call that received it.
  package let content: Content

  /// The same line as an ``InputLine``, its text copied into a `String`.
  package var inputLine: InputLine {
    switch content {
    case .text(let bytes, let decoded):
      InputLine(number: number, content: .text(decoded ?? String(decoding: bytes, as: UTF8.self)))
    case .invalidUTF8(let byteCount):
      InputLine(number: number, content: .invalidUTF8(byteCount: byteCount))
    case .tooLong(let byteCount):
      InputLine(number: number, content: .tooLong(byteCount: byteCount))
    }
  }
}
