// What a key press on the terminal means to the interactive screen, decoded from the bytes the
// terminal sends (see KeyDecoder).

/// One key press, or a run of typed (or pasted) text.
enum Key: Equatable, Sendable {
  /// Printable text: one typed character, or several when they arrived in one read (a paste).
  case text(String)
  /// Return (CR or LF).
  case enter
  /// Esc pressed alone (not the start of an escape sequence).
  case escape
  /// Backspace (DEL or Ctrl-H).
  case backspace
  /// The Delete key (`ESC [ 3 ~`).
  case delete
  /// The arrow keys.
  case left, right, up, down
  /// Home and End, in any of the encodings terminals use.
  case home, end
  /// Ctrl and a letter, as the lowercase letter: Ctrl-W is `.control("w")`. Ctrl-H, Ctrl-I,
  /// Ctrl-J and Ctrl-M arrive as ``backspace``, tab (ignored) and ``enter``.
  case control(Character)
}
