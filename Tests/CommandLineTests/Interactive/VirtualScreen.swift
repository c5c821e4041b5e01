// A small terminal emulator for the pty tests: replays the bytes the tool drew and gives the
// text a person would see, the cursor, and whether the alternate screen is still up. It knows
// the escapes the tool uses (CUP, EL, ED, SGR, DEC modes) and skips the others.
@testable import stream_search

/// The screen that a stream of terminal output leaves.
struct VirtualScreen {
  private(set) var rows: [[String]]
  private var main: [[String]]
  private(set) var cursor = (row: 0, column: 0)
  private(set) var isAlternateScreen = false
  private(set) var isCursorVisible = true
  private let size: (rows: Int, columns: Int)

  /// The screen after `bytes`, on a terminal of `rows` × `columns`.
  init(_ bytes: [UInt8], rows: Int = 24, columns: Int = 80) {
    size = (rows, columns)
    self.rows = Self.blank(rows, columns)
    main = self.rows
    var characters = Array(String(decoding: bytes, as: UTF8.self))[...]
    while let character = characters.popFirst() {
      switch character {
      case "\u{1B}": escape(&characters)
      case "\r": cursor.column = 0
      case "\n", "\r\n": cursor = (min(cursor.row + 1, size.rows - 1), character == "\r\n" ? 0 : cursor.column)
      default: put(character)
      }
    }
  }

  /// Row `row`'s text, trailing spaces removed.
  func line(_ row: Int) -> String {
    var text = rows[row].joined()
    while text.last == " " { text.removeLast() }
    return text
  }

  /// Every row's text, trailing blank rows removed: a text capture of the screen.
  var text: String {
    var lines = (0..<size.rows).map(line)
    while lines.last == "" { lines.removeLast() }
    return lines.joined(separator: "\n")
  }

  private static func blank(_ rows: Int, _ columns: Int) -> [[String]] {
    Array(repeating: Array(repeating: " ", count: columns), count: rows)
  }

  private mutating func put(_ character: Character) {
    let width = TextWidth.columns(of: character)
    guard width > 0, cursor.column + width <= size.columns else { return }
    rows[cursor.row][cursor.column] = String(character)
    if width == 2 { rows[cursor.row][cursor.column + 1] = "" }
    cursor.column += width
  }

  private mutating func escape(_ characters: inout ArraySlice<Character>) {
    guard characters.popFirst() == "[" else { return }
    var parameters = ""
    while let next = characters.popFirst() {
      guard next.isLetter || next == "~" else {
        parameters.append(next)
        continue
      }
      control(next, parameters)
      return
    }
  }

  private mutating func control(_ final: Character, _ parameters: String) {
    let numbers = parameters.split(separator: ";").map { Int($0.filter(\.isNumber)) ?? 0 }
    switch final {
    case "H":
      cursor = (max(1, numbers.first ?? 1) - 1, max(1, numbers.count > 1 ? numbers[1] : 1) - 1)
    case "K":
      for column in cursor.column..<size.columns { rows[cursor.row][column] = " " }
    case "J" where numbers.first == 2:
      rows = Self.blank(size.rows, size.columns)
    case "h" where parameters == "?1049":
      main = rows
      rows = Self.blank(size.rows, size.columns)
      isAlternateScreen = true
    case "l" where parameters == "?1049":
      rows = main
      isAlternateScreen = false
    case "h" where parameters == "?25": isCursorVisible = true
    case "l" where parameters == "?25": isCursorVisible = false
    default: break
    }
  }
}
