// The search field of the interactive screen: its text and cursor, edited by keys as a shell's
// line editor does (Backspace, Ctrl-W, Ctrl-U, arrows, Home/End, Ctrl-A/Ctrl-E).
import Pipeline

/// A one-line text field with a cursor.
///
/// The cursor counts characters (grapheme clusters), so it never splits an accented letter or
/// an emoji; ``cursorColumn`` converts it to terminal columns for wide characters.
///
/// The text holds at most ``maximumBytes`` bytes of UTF-8, the longest term a line of input or a
/// recording may hold, so that every term the screen searches replays from its recording. Typing
/// or pasting past it keeps the whole characters that fit and drops the rest.
struct FieldEditor: Equatable, Sendable {
  /// The most bytes of UTF-8 the field holds: one limit for every way a term comes in.
  static let maximumBytes = InputLineParser.maximumTermBytes

  /// The field's text.
  private(set) var text = ""
  /// How many characters are before the cursor, from 0 to `text.count`.
  private(set) var cursor = 0
  /// Whether the latest edit was typing or a paste that did not fit whole.
  private(set) var wasCut = false

  /// The columns the text before the cursor takes.
  var cursorColumn: Int { TextWidth.columns(of: text.prefix(cursor)) }

  /// Applies `key` if it is an editing key; returns false for keys the field does not handle.
  mutating func apply(_ key: Key) -> Bool {
    let cutBefore = wasCut
    wasCut = false
    switch key {
    case .text(let typed): insert(typed)
    case .backspace: if cursor > 0 { remove(cursor - 1..<cursor) }
    case .delete, .control("d"): if cursor < text.count { remove(cursor..<cursor + 1) }
    case .left, .control("b"): cursor = max(0, cursor - 1)
    case .right, .control("f"): cursor = min(text.count, cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = text.count
    case .control("u"): remove(0..<cursor)
    case .control("k"): remove(cursor..<text.count)
    case .control("w"): remove(wordStart()..<cursor)
    default:
      wasCut = cutBefore
      return false
    }
    return true
  }

  /// Inserts the characters of `typed` that fit within ``maximumBytes`` at the cursor and moves
  /// the cursor past them. Counted after insertion: a combining mark joins the character before
  /// it and adds no character. Bytes add up whatever joins, so the limit holds exactly.
  private mutating func insert(_ typed: String) {
    var room = Self.maximumBytes - text.utf8.count
    var fitting = ""
    for character in typed {
      let size = character.utf8.count
      guard size <= room else {
        wasCut = true
        break
      }
      fitting.append(character)
      room -= size
    }
    let before = text.count
    text.insert(contentsOf: fitting, at: index(cursor))
    cursor += text.count - before
  }

  /// Removes the characters in `range` (character offsets) and puts the cursor where they were.
  private mutating func remove(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    text.removeSubrange(index(range.lowerBound)..<index(range.upperBound))
    cursor = range.lowerBound
  }

  /// Where Ctrl-W's deletion starts: back over spaces, then over the word before them.
  private func wordStart() -> Int {
    let characters = Array(text.prefix(cursor))
    var start = characters.count
    while start > 0, characters[start - 1].isWhitespace { start -= 1 }
    while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
    return start
  }

  private func index(_ offset: Int) -> String.Index {
    text.index(text.startIndex, offsetBy: offset)
  }
}
