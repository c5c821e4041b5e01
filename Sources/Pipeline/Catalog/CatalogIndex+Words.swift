// Dictionary look-ups of the catalog index: which indexed words start with, contain, or are a
// few typos away from one query word. Each works on the word dictionary, never on the items.

extension CatalogIndex {
  /// The ids of the words starting with `prefix`: one contiguous range, found by two binary
  /// searches in the sorted dictionary.
  func wordIds(startingWith prefix: FoldedWord) -> Range<Int> {
    let lower = firstWord { !$0.lexicographicallyPrecedes(prefix) }
    let upper = firstWord { !$0.starts(with: prefix) && !$0.lexicographicallyPrecedes(prefix) }
    return lower..<max(lower, upper)
  }

  /// The id of exactly `word`, nil when no name contains it.
  func wordId(of word: FoldedWord) -> Int? {
    let position = firstWord { !$0.lexicographicallyPrecedes(word) }
    return position < words.count && words[position] == word ? position : nil
  }

  /// The ids of the words containing `part` (three scalars or more) other than at their start,
  /// ascending. Shorter parts give none: inside a word they would match nearly everything.
  ///
  /// The words sharing `part`'s rarest trigram are the only candidates; each is then checked.
  func wordIds(containing part: FoldedWord) -> [Int32] {
    guard part.count >= 3 else { return [] }
    var rarest: [Int32]?
    for start in 0...(part.count - 3) {
      guard let list = trigrams[Self.trigram(part, at: start)] else { return [] }
      if list.count < rarest?.count ?? Int.max { rarest = list }
    }
    return (rarest ?? []).filter { id in
      let word = words[Int(id)]
      return !word.starts(with: part) && Self.contains(word, part)
    }
  }

  /// The ids of the words `word` is a typo of (`CatalogRanking.isTypo`), including exact and
  /// prefix matches, ascending.
  ///
  /// Only words of a length within the allowance and with the same first character (a typo
  /// keeps it) are compared: the words are sorted, so in each length's list those form one run
  /// of initials, found by binary search. Most are then ruled out by their character masks,
  /// read from the same contiguous run, before any distance is computed.
  func wordIds(near word: FoldedWord) -> [Int32] {
    let allowance = CatalogRanking.typoAllowance(forLength: word.count)
    guard allowance > 0, let initial = word.first else { return [] }
    let mask = Self.characterMask(word)
    let shortest = max(1, word.count - allowance)
    let longest = min(wordsByLength.count - 1, word.count + allowance)
    guard shortest <= longest else { return [] }
    var matches: [Int32] = []
    for length in shortest...longest {
      let bucket = wordsByLength[length]
      var low = 0
      var high = bucket.initials.count
      while low < high {
        let middle = (low + high) / 2
        if bucket.initials[middle] < initial { low = middle + 1 } else { high = middle }
      }
      var position = low
      while position < bucket.initials.count, bucket.initials[position] == initial {
        defer { position += 1 }
        let other = bucket.masks[position]
        guard (mask & ~other).nonzeroBitCount <= allowance, (other & ~mask).nonzeroBitCount <= allowance
        else { continue }
        let id = bucket.ids[position]
        if CatalogRanking.isTypo(word, of: words[Int(id)]) {
          matches.append(id)
        }
      }
    }
    return matches.sorted()
  }

  /// The first position in the dictionary where `isAtOrAfter` holds; it must be false then
  /// true along the sorted words.
  private func firstWord(where isAtOrAfter: (FoldedWord) -> Bool) -> Int {
    var low = 0
    var high = words.count
    while low < high {
      let middle = (low + high) / 2
      if isAtOrAfter(words[middle]) {
        high = middle
      } else {
        low = middle + 1
      }
    }
    return low
  }

  private static func contains(_ word: FoldedWord, _ part: FoldedWord) -> Bool {
    guard word.count >= part.count else { return false }
    for start in 0...(word.count - part.count) where word[start] == part[0] {
      var offset = 1
      while offset < part.count, word[start + offset] == part[offset] { offset += 1 }
      if offset == part.count { return true }
    }
    return false
  }
}
