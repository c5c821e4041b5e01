// Draws frames on an ANSI terminal, writing only the rows that differ from what is already shown:
// no screen clear between frames, so nothing flickers. Ctrl-L and resizes call `invalidate()` to
// redraw everything.

/// Turns frames into the bytes that bring the terminal from the last frame to the next.
///
/// Each changed row is drawn in place (`CSI row;1H`, its text, `CSI K` to erase the rest), inside
/// hidden-cursor brackets so the cursor never jumps visibly. Rows are cut one column short of the
/// width: a character in the last column leaves some terminals waiting to wrap, and the erase
/// after it would then remove it.
struct ScreenRenderer: Sendable {
  /// What each row of the terminal shows now; nil when unknown (first frame, after invalidate).
  private var shown: [ScreenLine?]
  private var shownCursor: (row: Int, column: Int)?
  /// The terminal's size the frames are drawn for.
  private(set) var size: TerminalSize

  /// A renderer for a terminal of `size` whose content is unknown: the first frame draws every row.
  init(size: TerminalSize) {
    self.size = size
    shown = Array(repeating: nil, count: size.rows)
  }

  /// Forgets what the terminal shows, so that the next frame clears the screen and draws every row.
  mutating func invalidate() {
    shown = Array(repeating: nil, count: size.rows)
    shownCursor = nil
  }

  /// Sets a new size; the next frame redraws everything.
  mutating func resize(to size: TerminalSize) {
    self.size = size
    invalidate()
  }

  /// The bytes that draw `frame`; empty when the terminal already shows it.
  mutating func render(_ frame: ScreenFrame) -> [UInt8] {
    var output = ""
    if shown.allSatisfy({ $0 == nil }) {
      output += "\u{1B}[H\u{1B}[2J"
      shown = Array(repeating: ScreenLine(text: ""), count: size.rows)
    }
    let width = max(0, size.columns - 1)
    for row in 0..<size.rows {
      var line = row < frame.lines.count ? frame.lines[row] : ScreenLine(text: "")
      line.text = TextWidth.prefix(of: line.text, fitting: width)
      guard shown[row] != line else { continue }
      shown[row] = line
      output += "\u{1B}[\(row + 1);1H" + Self.draw(line, width: width)
    }
    let cursor = (row: min(max(frame.cursorRow, 0), size.rows - 1), column: min(max(frame.cursorColumn, 0), width))
    guard !output.isEmpty || shownCursor.map({ $0 != cursor }) ?? true else { return [] }
    shownCursor = cursor
    return Array(("\u{1B}[?25l" + output + "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h").utf8)
  }

  /// One row's escapes and text, then erase to the end of the row.
  private static func draw(_ line: ScreenLine, width: Int) -> String {
    switch line.style {
    case .plain:
      return line.text + "\u{1B}[K"
    case .dim:
      return "\u{1B}[2m" + line.text + "\u{1B}[0m\u{1B}[K"
    case .bold:
      return "\u{1B}[1m" + line.text + "\u{1B}[0m\u{1B}[K"
    case .selected:
      let padding = String(repeating: " ", count: max(0, width - TextWidth.columns(of: line.text)))
      return "\u{1B}[7m" + line.text + padding + "\u{1B}[0m\u{1B}[K"
    }
  }
}
