// The other ways a query may be spelt: two of its words written as one ("sound garden" for
// Soundgarden) or one written as two or three ("taylorswift", "shakeitoff"). People join and
// split names without thinking of it, so a search tries these too, wherever the dictionary of
// the names being searched says that the other spelling is made of real words.

extension CatalogQuery {
  /// At most how many respellings a query is searched with: each is a search of its own.
  static let respellingLimit = 4

  /// The shortest word a respelling joins or splits off: one letter alone is a start of far too
  /// many names ("taylors" is not "taylor s…").
  static let respelledPartMinimum = 2

  /// The longest word a respelling splits: no name written as one word is longer, and trying
  /// every cut of a longer one costs time in the square of its length on every keystroke (a
  /// pasted kilobyte would cost milliseconds per search).
  static let splitWordMaximum = 64

  /// The query spelt otherwise, by the words of a dictionary: `isWord` says whether a word is
  /// one of its words, `startsWord` whether some word starts with it (the word itself
  /// included).
  ///
  /// - Joined: two neighbouring words written as one, when that one is a word (for the last
  ///   query word, starts a word): "sound garden" → "soundgarden", "cold pl" → "coldpl".
  /// - Split: a word of the query written as two words, or as three when two will not do, each
  ///   a word (the last part of the last query word may start one): "taylorswift" → "taylor
  ///   swift", "shakeitoff" → "shake it off". Of the splits possible, the one in fewest parts,
  ///   then with the longest first part.
  ///
  /// Parts are at least `respelledPartMinimum` letters. Joins come first, from the start of the
  /// query, then splits; at most `respellingLimit`, each different from the query.
  ///
  /// A word's split depends on the word, whether it is the last, and the dictionary alone, and
  /// the earlier words of a term are split again at every keystroke: `known` may answer with a
  /// split kept for a word (and whether it is the last; `.some(nil)` for none), and each split
  /// made is handed to `keep`.
  func respellings(
    isWord: (FoldedWord) -> Bool, startsWord: (FoldedWord) -> Bool,
    known: (FoldedWord, Bool) -> [FoldedWord]?? = { _, _ in nil },
    keep: (FoldedWord, Bool, [FoldedWord]?) -> Void = { _, _, _ in }
  ) -> [CatalogQuery] {
    let last = words.count - 1
    let minimum = Self.respelledPartMinimum
    var found: [CatalogQuery] = []
    func add(_ respelt: [FoldedWord], lastChanged: Bool) {
      guard found.count < Self.respellingLimit, respelt != words else { return }
      found.append(CatalogQuery(words: respelt, lastAsTyped: lastChanged ? respelt[respelt.count - 1] : lastAsTyped))
    }
    for index in 0..<max(last, 0) where words[index].count >= minimum && words[index + 1].count >= minimum {
      let joined = words[index] + words[index + 1]
      guard index + 1 == last ? startsWord(joined) : isWord(joined) else { continue }
      add(Array(words[..<index]) + [joined] + Array(words[(index + 2)...]), lastChanged: index + 1 == last)
    }
    for index in words.indices where found.count < Self.respellingLimit {
      let isLast = index == last
      // A word too long to split is not kept either: its key would be a pasted kilobyte.
      guard words[index].count <= Self.splitWordMaximum else { continue }
      let parts: [FoldedWord]?
      if let kept = known(words[index], isLast) {
        parts = kept
      } else {
        parts = split(words[index], isWord: isWord, startsWord: startsWord, endsWith: isLast ? startsWord : isWord)
        keep(words[index], isLast, parts)
      }
      guard let parts else { continue }
      add(Array(words[..<index]) + parts + Array(words[(index + 1)...]), lastChanged: isLast)
    }
    return found
  }

  /// `word` as two or three parts of at least `respelledPartMinimum` letters, each a word by
  /// `isWord` but the last, which must satisfy `endsWith`; nil when there is no such split.
  ///
  /// The heads tried are only the starts of `word` that are words: found from the shortest up,
  /// they stop at the first start that no word begins with (`startsWord`), since no longer one
  /// can be a word either. Trying every cut asked the dictionary for two parts per cut, on every
  /// word of every keystroke.
  private func split(
    _ word: FoldedWord, isWord: (FoldedWord) -> Bool, startsWord: (FoldedWord) -> Bool,
    endsWith: (FoldedWord) -> Bool
  ) -> [FoldedWord]? {
    let minimum = Self.respelledPartMinimum
    guard word.count >= 2 * minimum, word.count <= Self.splitWordMaximum else { return nil }
    let heads = Self.wordStarts(of: word[...], upTo: word.count - minimum, isWord: isWord, startsWord: startsWord)
    // Two parts, the longest first part first.
    for cut in heads.reversed() {
      let tail = Array(word[cut...])
      if endsWith(tail) { return [Array(word[..<cut]), tail] }
    }
    guard word.count >= 3 * minimum else { return nil }
    for cut in heads.reversed() where cut <= word.count - 2 * minimum {
      let middles = Self.wordStarts(
        of: word[cut...], upTo: word.count - cut - minimum, isWord: isWord, startsWord: startsWord)
      for length in middles.reversed() {
        let second = cut + length
        let tail = Array(word[second...])
        if endsWith(tail) { return [Array(word[..<cut]), Array(word[cut..<second]), tail] }
      }
    }
    return nil
  }

  /// The lengths from `respelledPartMinimum` to `longest` at which `letters` starts with a word
  /// (`isWord`), ascending; the search stops at the first length whose start begins no word.
  private static func wordStarts(
    of letters: ArraySlice<UInt32>, upTo longest: Int, isWord: (FoldedWord) -> Bool,
    startsWord: (FoldedWord) -> Bool
  ) -> [Int] {
    var lengths: [Int] = []
    guard longest >= respelledPartMinimum else { return lengths }
    for length in respelledPartMinimum...longest {
      let start = Array(letters.prefix(length))
      guard startsWord(start) else { break }
      if isWord(start) { lengths.append(length) }
    }
    return lengths
  }
}
