// One line of text input, as the line readers deliver it: its number and its content, which is
// either the text or the reason it could not be read as text.

/// A line read from a file, a pipe or a FIFO.
///
/// Bad lines are elements too: a line that is not valid UTF-8, or longer than the reader's
/// limit, is delivered as ``Content/invalidUTF8(byteCount:)`` or ``Content/tooLong(byteCount:)``
/// so that the consumer can report it and go on. Reading never stops because of a bad line,
/// and bad lines count in the numbering.
///
/// ## How input is split into lines
/// - A line ends at `\n`; a `\r` just before it is removed too. A `\r` anywhere else, a NUL, or
///   any other byte is part of the line.
/// - A line may be split across any number of reads, at any byte (even inside a UTF-8 character).
/// - A line that is not valid UTF-8 is delivered as ``InputLine/Content/invalidUTF8(byteCount:)``.
/// - A line longer than the reader's `maxLineLength` bytes (terminator excluded) is delivered
///   once, when it ends, as ``InputLine/Content/tooLong(byteCount:)``. Its bytes are counted and
///   dropped as they arrive, so memory stays bounded by `maxLineLength` whatever the input.
/// - Bad lines take a number like any other; the next line is read normally.
/// - A UTF-8 byte-order mark (`EF BB BF`) at the very start of the input is dropped, as editors
///   on Windows write one; anywhere else it is part of its line.
public struct InputLine: Sendable, Equatable {
  /// What a line holds.
  public enum Content: Sendable, Equatable {
    /// A line of valid UTF-8, without its line terminator (`\n` or `\r\n`). It may be empty and
    /// may contain NUL characters.
    case text(String)
    /// A line that is not valid UTF-8, with the number of bytes it held (terminator excluded).
    case invalidUTF8(byteCount: Int)
    /// A line longer than the reader's maximum length, with the number of bytes it held
    /// (terminator excluded). Its bytes were discarded as they arrived, never buffered.
    case tooLong(byteCount: Int)
  }

  /// The longest line, in bytes without its terminator, that the line readers deliver as text
  /// unless told otherwise: 1 MiB, far beyond any line a person or a recorder writes, and small
  /// enough that a runaway line costs little.
  public static let defaultMaxLength = 1 << 20

  /// The line's position in the input, starting at 1. Every line counts, bad ones included.
  public let number: Int

  /// The line's text, or why it has none.
  public let content: Content

  /// Creates a line with the given 1-based number and content.
  public init(number: Int, content: Content) {
    self.number = number
    self.content = content
  }

  /// The line's text, or nil for a line that is not valid UTF-8 or is too long.
  public var text: String? {
    if case .text(let text) = content { return text }
    return nil
  }
}
