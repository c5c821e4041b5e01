// One line of text input, as the line readers deliver it: its number and its content, which is
// either the text or the reason it could not be read as text.

/// A line read from a file, a pipe or a FIFO.
///
/// Bad lines are elements too: a line that is not valid UTF-8, or longer than the reader's
/// limit, is delivered as ``Content/invalidUTF8(byteCount:)`` or ``Content/tooLong(byteCount:)``
/// so that the consumer can report it and go on. Reading never stops because of a bad line,
/// and bad lines count in the numbering.
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
