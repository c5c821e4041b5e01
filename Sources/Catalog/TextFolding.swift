// Folds names and queries to comparable words: case and Latin/Greek diacritics are ignored
// (é→e, Ø→o, ß→ss), other scripts keep every mark (kana stay kana, が is not か) but still
// lose case (full-width Ａ→ａ). Words are runs of letters and digits, also ended where Japanese
// or Korean text changes script; apostrophes join.
import Pipeline

/// A word after folding: its Unicode scalar values. Arrays of integers compare, hash and index
/// far faster than `String`, which matters on the per-keystroke path.
typealias FoldedWord = [UInt32]

/// Case and diacritic folding plus word splitting, the same for names and queries.
enum TextFolding {
  /// The words of `text` as they are matched: folded (`literalWords(_:)`), then with the
  /// equivalences of `canonical(_:)` applied ("Frozen II" → "frozen two", "Guns N' Roses" →
  /// "guns and roses").
  static func words(_ text: String) -> [FoldedWord] {
    canonical(literalWords(text).words)
  }

  /// The folded words of `text`, in order, before any equivalence, and which neighbours were
  /// joined by a single hyphen, slash or dot ("Spider-Man", "AC/DC", "E.T.").
  ///
  /// Separators are every scalar that is neither a letter, a digit nor a mark; apostrophes
  /// (', ’, ʼ) are dropped without splitting, so "Don't" is one word, "dont". An ampersand is
  /// the word "and" wherever it stands ("R&B" is "r and b"); a plus sign is "and" when it stands
  /// alone between spaces ("Florence + the Machine").
  static func literalWords(_ text: String) -> SplitWords {
    var splitter = WordSplitter()
    for scalar in text.unicodeScalars { splitter.add(scalar) }
    return splitter.finish()
  }

  /// The words of a text and, for each word but the last, whether a single joining scalar (and
  /// nothing else) separated it from the next.
  struct SplitWords {
    var words: [FoldedWord] = []
    /// `joinedToNext[i]`: word `i` and word `i + 1` were written as one, joined by `-`, `/`, `.`
    /// or `·` ("spider" and "man" in "Spider-Man").
    var joinedToNext: [Bool] = []
  }

  /// Splits scalars into folded words, one scalar at a time.
  private struct WordSplitter {
    var result = SplitWords()
    var current: FoldedWord = []
    /// The scalars seen since the last word ended: none, one joiner, or anything else.
    var gap = Gap.none
    /// A plus sign after a space (or at the start) that becomes "and" if a space follows.
    var plusPending = false
    /// Whether the last scalar was a space, or nothing came yet.
    var afterSpace = true
    /// The script of the word being read (see `TextFolding.script(of:)`).
    var script = Script.other

    enum Gap { case none, joiner, other }

    mutating func add(_ scalar: Unicode.Scalar) {
      let value = scalar.value
      let wasAfterSpace = afterSpace
      afterSpace = false
      if plusPending {
        plusPending = false
        if isSpace(scalar) { appendWord(TextFolding.and) }
      }
      if value < 0x80 {
        // ASCII, the bulk of every catalog: no table, no Unicode properties.
        switch value {
        case 0x61...0x7A, 0x30...0x39: letter(value, script: .other)
        case 0x41...0x5A: letter(value + 0x20, script: .other)
        case 0x27: break
        case 0x26: appendWord(TextFolding.and)
        case 0x2B:
          endWord(joining: false)
          plusPending = wasAfterSpace
        case 0x2D, 0x2E, 0x2F: endWord(joining: true)
        default:
          afterSpace = isSpace(scalar)
          endWord(joining: false)
        }
        return
      }
      if TextFolding.isApostrophe(value) || TextFolding.isLatinCombiningMark(value) { return }
      if let folded = TextFolding.latinAndGreekFolds[value] {
        startWord(script: .other)
        current.append(contentsOf: folded)
      } else if value == 0xFF06 {
        appendWord(TextFolding.and)
      } else if TextFolding.isWordScalar(scalar) {
        startWord(script: TextFolding.script(of: value))
        TextFolding.appendLowercased(scalar, to: &current)
      } else {
        afterSpace = scalar.properties.isWhitespace
        endWord(joining: value == 0xB7 || value == 0x2010 || value == 0x2011)
      }
    }

    mutating func finish() -> SplitWords {
      if plusPending { appendWord(TextFolding.and) }
      endWord(joining: false)
      return result
    }

    private mutating func letter(_ value: UInt32, script: Script?) {
      startWord(script: script)
      current.append(value)
    }

    /// Records the gap before a word that begins now, if one does: after a separator, or where
    /// Japanese or Korean text changes script within a run of letters. `nil`: a scalar of no
    /// script of its own (a voicing or length mark), which continues the word.
    private mutating func startWord(script newScript: Script?) {
      if let newScript {
        if !current.isEmpty, newScript != script, newScript != .other || script != .other { endWord(joining: false) }
        script = newScript
      }
      guard current.isEmpty else { return }
      if !result.words.isEmpty { result.joinedToNext.append(gap == .joiner) }
      gap = .none
    }

    /// Ends the word being read, if any; a separator after a word widens the gap.
    private mutating func endWord(joining: Bool) {
      if !current.isEmpty {
        result.words.append(current)
        current.removeAll(keepingCapacity: true)
        gap = joining ? .joiner : .other
      } else {
        gap = .other
      }
    }

    /// A word of its own ("and" for "&"), never joined to its neighbours.
    private mutating func appendWord(_ word: FoldedWord) {
      endWord(joining: false)
      if !result.words.isEmpty { result.joinedToNext.append(false) }
      result.words.append(word)
      gap = .other
    }

    private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value < 0x80
        ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }
  }

  /// The scripts whose changes start a word: Japanese and Korean are written without spaces,
  /// and where kanji, hiragana and katakana meet is the nearest thing to a word start ("宇多田ヒカル"
  /// is "宇多田" and "ヒカル"). Everything else is `other`.
  enum Script {
    case other, han, hiragana, katakana, hangul
  }

  /// The script of a word scalar; nil for the voicing and length marks that belong to the kana
  /// before them.
  static func script(of value: UInt32) -> Script? {
    switch value {
    case 0x3099...0x309C, 0x30FC, 0xFF70, 0xFF9E, 0xFF9F: nil
    case 0x3041...0x3096, 0x309D, 0x309E: .hiragana
    case 0x30A1...0x30FA, 0x30FD, 0x30FE, 0x31F0...0x31FF, 0xFF66...0xFF9D: .katakana
    case 0x3005, 0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFF: .han
    case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: .hangul
    default: .other
    }
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
