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
  func respellings(isWord: (FoldedWord) -> Bool, startsWord: (FoldedWord) -> Bool) -> [CatalogQuery] {
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
    for index in words.indices {
      let isLast = index == last
      guard let parts = split(words[index], isWord: isWord, endsWith: isLast ? startsWord : isWord) else { continue }
      add(Array(words[..<index]) + parts + Array(words[(index + 1)...]), lastChanged: isLast)
    }
    return found
  }

  /// `word` as two or three parts of at least `respelledPartMinimum` letters, each a word by
  /// `isWord` but the last, which must satisfy `endsWith`; nil when there is no such split.
  private func split(
    _ word: FoldedWord, isWord: (FoldedWord) -> Bool, endsWith: (FoldedWord) -> Bool
  ) -> [FoldedWord]? {
    let minimum = Self.respelledPartMinimum
    guard word.count >= 2 * minimum, word.count <= Self.splitWordMaximum else { return nil }
    // Two parts, the longest first part first.
    for cut in stride(from: word.count - minimum, through: minimum, by: -1) {
      let head = Array(word[..<cut])
      let tail = Array(word[cut...])
      if isWord(head) && endsWith(tail) { return [head, tail] }
    }
    guard word.count >= 3 * minimum else { return nil }
    for cut in stride(from: word.count - 2 * minimum, through: minimum, by: -1) {
      let head = Array(word[..<cut])
      guard isWord(head) else { continue }
      for second in stride(from: word.count - minimum, through: cut + minimum, by: -1) {
        let middle = Array(word[cut..<second])
        let tail = Array(word[second...])
        if isWord(middle) && endsWith(tail) { return [head, middle, tail] }
      }
    }
    return nil
  }
}
