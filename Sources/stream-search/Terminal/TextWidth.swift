// How many terminal columns text takes: East Asian wide and fullwidth characters and emoji take
// two, combining marks none, everything else one. Used to place the cursor and to cut lines to the
// screen's width.

/// Terminal column widths of characters and strings.
///
/// The wide ranges are those of Unicode's East Asian Width (W and F) that terminals draw two
/// columns wide (Hangul, CJK, kana, fullwidth forms) and emoji shown as emoji. A character is
/// measured by its first scalar, so `e` + U+0301 is one column and a flag is two.
enum TextWidth {
  /// The columns `character` takes; 0 for controls and a combining mark standing alone.
  static func columns(of character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    if character.unicodeScalars.contains("\u{FE0F}") || first.properties.isEmojiPresentation { return 2 }
    switch first.properties.generalCategory {
    case .control, .format, .nonspacingMark, .enclosingMark: return 0
    default: break
    }
    return isWide(first.value) ? 2 : 1
  }

  /// The columns `text` takes.
  static func columns(of text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + columns(of: $1) }
  }

  /// `text` cut to at most `limit` columns; a wide character that would straddle the limit is left out.
  static func prefix(of text: some StringProtocol, fitting limit: Int) -> String {
    var used = 0
    var result = ""
    for character in text {
      let width = columns(of: character)
      if used + width > limit { break }
      used += width
      result.append(character)
    }
    return result
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
    0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
    0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
    0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]

  private static func isWide(_ value: UInt32) -> Bool {
    wideRanges.contains { $0.contains(value) }
  }
}
