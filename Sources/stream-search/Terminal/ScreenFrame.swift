// What the screen should show, row by row, before it is drawn: plain values a view builds and a
// `ScreenRenderer` compares with what the terminal already shows.

/// The size of the terminal, in character cells.
struct TerminalSize: Equatable, Sendable {
  /// Rows, at least 1.
  var rows: Int
  /// Columns, at least 1.
  var columns: Int
}

/// One row of the screen.
struct ScreenLine: Equatable, Sendable {
  /// How the row is drawn.
  enum Style: Equatable, Sendable {
    /// Normal text.
    case plain
    /// Faint text, for the status and hints.
    case dim
    /// Bold text, for category headings.
    case bold
    /// Reverse video across the whole width, for the selected result.
    case selected
  }

  /// The row's text, without control characters; it is cut to the screen's width when drawn.
  var text: String
  /// How it is drawn.
  var style: Style = .plain
}

/// A whole screen: rows from the top (missing rows are blank) and where the cursor goes.
struct ScreenFrame: Equatable, Sendable {
  /// The rows from the top; rows past the terminal's height are not drawn.
  var lines: [ScreenLine]
  /// The cursor's row and column, from 0.
  var cursorRow: Int
  var cursorColumn: Int
}
