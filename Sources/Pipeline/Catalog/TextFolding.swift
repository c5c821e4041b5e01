// Folds names and queries to comparable words: case and Latin/Greek diacritics are ignored
// (é→e, Ø→o, ß→ss), other scripts keep every mark (kana stay kana, が is not か) but still
// lose case (full-width Ａ→ａ). Words are runs of letters and digits; apostrophes join.

/// A word after folding: its Unicode scalar values. Arrays of integers compare, hash and index
/// far faster than `String`, which matters on the per-keystroke path.
typealias FoldedWord = [UInt32]

/// Case and diacritic folding plus word splitting, the same for names and queries.
enum TextFolding {
  /// The folded words of `text`, in order.
  ///
  /// Separators are every scalar that is neither a letter, a digit nor a mark; apostrophes
  /// (', ’, ʼ) are dropped without splitting, so "Don't" is one word, "dont".
  static func words(_ text: String) -> [FoldedWord] {
    var words: [FoldedWord] = []
    var current: FoldedWord = []
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value < 0x80 {
        // ASCII, the bulk of every catalog: no table, no Unicode properties.
        switch value {
        case 0x61...0x7A, 0x30...0x39: current.append(value)
        case 0x41...0x5A: current.append(value + 0x20)
        case 0x27: continue
        default: flush(&current, into: &words)
        }
        continue
      }
      if isApostrophe(value) || isLatinCombiningMark(value) { continue }
      if let folded = latinAndGreekFolds[value] {
        current.append(contentsOf: folded)
        continue
      }
      if isWordScalar(scalar) {
        appendLowercased(scalar, to: &current)
      } else {
        flush(&current, into: &words)
      }
    }
    flush(&current, into: &words)
    return words
  }

  private static func flush(_ current: inout FoldedWord, into words: inout [FoldedWord]) {
    guard !current.isEmpty else { return }
    words.append(current)
    current.removeAll(keepingCapacity: true)
  }

  private static func isApostrophe(_ value: UInt32) -> Bool {
    value == 0x2019 || value == 0x02BC
  }

  /// The Combining Diacritical Marks block: accents written as separate scalars (decomposed
  /// input). Kana voicing marks (U+3099, U+309A) lie outside it and are kept.
  private static func isLatinCombiningMark(_ value: UInt32) -> Bool {
    (0x300...0x36F).contains(value)
  }

  private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    if properties.isAlphabetic || properties.numericType != nil { return true }
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  private static func appendLowercased(_ scalar: Unicode.Scalar, to word: inout FoldedWord) {
    let lowered = scalar.properties.lowercaseMapping
    for folded in lowered.unicodeScalars {
      word.append(folded.value)
    }
  }

  /// Letters that fold to something other than their decomposition's base letter, or that have
  /// no decomposition at all but are read as a plain letter by people typing without accents.
  private static let specialFolds: [UInt32: String] = [
    0x00C6: "ae", 0x00E6: "ae", 0x00D8: "o", 0x00F8: "o", 0x00DF: "ss", 0x0152: "oe", 0x0153: "oe",
    0x00D0: "d", 0x00F0: "d", 0x0110: "d", 0x0111: "d", 0x00DE: "th", 0x00FE: "th", 0x0141: "l",
    0x0142: "l", 0x0131: "i", 0x0126: "h", 0x0127: "h", 0x1E9E: "ss",
  ]

  /// The folded form of every letter in the Latin and Greek blocks that carry accents: the
  /// canonical decomposition without its combining marks, lowercased (see
  /// `accentedBlockFolds`), or a special fold. Built once, about a thousand scalars.
  private static let latinAndGreekFolds: [UInt32: FoldedWord] = {
    var table: [UInt32: FoldedWord] = [:]
    for (first, lines) in accentedBlockFolds {
      for (offset, folded) in lines.joined().unicodeScalars.enumerated() where folded != "_" {
        let value = first + UInt32(offset)
        if let special = specialFolds[value] {
          var word: FoldedWord = []
          for part in special.unicodeScalars { appendLowercased(part, to: &word) }
          table[value] = word
        } else {
          table[value] = [folded.value]
        }
      }
    }
    return table
  }()
}
