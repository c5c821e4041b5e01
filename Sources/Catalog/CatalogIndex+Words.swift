// Dictionary look-ups of the catalog index: which indexed words one query word starts, equals,
// or is a few typos away from. Each works on the word dictionary, never on the items.
import Pipeline

extension CatalogIndex {
  /// The ids of the words starting with `prefix`: one contiguous range, found by two binary
  /// searches in the sorted dictionary.
  ///
  /// The range's end is searched from its start, by steps doubling from one, before halving
  /// what is left: most words start few others, so the end is a few steps away, where a search
  /// of the whole dictionary takes fifteen.
  func wordIds(startingWith prefix: FoldedWord) -> Range<Int> {
    let lower = firstWord { Self.order($0, prefix) >= 0 }
    guard lower < words.count, Self.starts(words[lower], with: prefix) else { return lower..<lower }
    // The words starting with the prefix are words[lower ..< upper]: find a step past them.
    var step = 1
    var low = lower + 1
    while low + step - 1 < words.count, Self.starts(words[low + step - 1], with: prefix) {
      low += step
      step *= 2
    }
    var high = min(words.count, low + step - 1)
    while low < high {
      let middle = (low + high) / 2
      if Self.starts(words[middle], with: prefix) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return lower..<low
  }

  /// Whether some word starts with `prefix` (or is it): one binary search, where
  /// ``wordIds(startingWith:)`` takes two.
  func startsWord(_ prefix: FoldedWord) -> Bool {
    let lower = firstWord { Self.order($0, prefix) >= 0 }
    return lower < words.count && Self.starts(words[lower], with: prefix)
  }

  /// Whether `word` is one of this index's words: one binary search.
  func isWord(_ word: FoldedWord) -> Bool {
    let lower = firstWord { Self.order($0, word) >= 0 }
    return lower < words.count && Self.order(words[lower], word) == 0
  }

  /// The words query word `index` of `query` starts (`CatalogQuery.word(_:starts:)`), given
  /// `own`, those starting with the word itself (``wordIds(startingWith:)``).
  func wordsStarted(by query: CatalogQuery, word index: Int, own: Range<Int>) -> CatalogWordSet {
    // An initial is a word of its own: the first word starting with it, if that is it.
    if query.isInitial(index) {
      let isWord = !own.isEmpty && words[own.lowerBound].count == query.words[index].count
      return CatalogWordSet(isWord ? [own.lowerBound..<own.lowerBound + 1] : [])
    }
    var ranges = [own]
    if index == query.words.count - 1, query.lastAsTyped != query.words[index] {
      ranges.append(wordIds(startingWith: query.lastAsTyped))
    }
    return CatalogWordSet(ranges)
  }

  /// The words query word `word` is within its typo allowance of (`CatalogRanking.isTypo`), or
  /// with `prefix`, of whose start it is: found by walking the catalog dictionary's trie
  /// (`CatalogTypoSearch`) for the categories `categories` the search asks (bit `n`: catalog
  /// index `n`; this index's own is added), not by comparing words, and kept to this index's
  /// words.
  ///
  /// The last few answers are kept: while a term is typed, its earlier words are asked again at
  /// every keystroke.
  func typos(of word: FoldedWord, prefix: Bool, categories: UInt32) -> CatalogWordSet {
    let allowance = CatalogRanking.typoAllowance(forLength: word.count)
    // Nothing to walk, so nothing to keep: a word too long for the automaton (a term may hold
    // a thousand letters) would otherwise fill the memos with keys of kilobytes.
    guard TypoAutomaton.handles(word, allowance: allowance) else { return CatalogWordSet([]) }
    let categories = categories | typoCategory
    if let known = recentTypos.withLock({ $0.answer(for: word, prefix: prefix, categories: categories) }) {
      return known
    }
    // A run of the catalog's ids is the run of this index's words between where its two ends
    // would be.
    var ranges: [Range<Int>] = []
    for run in typoSearch.typos(of: word, allowance: allowance, prefix: prefix, categories: categories) {
      let local = ownWord(atOrAfter: run.lowerBound)..<ownWord(atOrAfter: run.upperBound)
      if !local.isEmpty { CatalogWordSet.append(local, to: &ranges) }
    }
    let found = CatalogWordSet(ranges)
    recentTypos.withLock { $0.keep(found, for: word, prefix: prefix, categories: categories) }
    return found
  }

  /// The first of this index's words whose catalog id is `id` or after.
  private func ownWord(atOrAfter id: Int32) -> Int {
    let catalogWords = catalogWords.buffer
    var low = 0
    var high = catalogWords.count
    while low < high {
      let middle = (low + high) / 2
      if catalogWords[middle] < id {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// Negative, zero or positive as `left` sorts before, equals or sorts after `right`, by scalar
  /// values (the dictionary's order); written out because the generic comparison of two arrays
  /// was most of a look-up.
  static func order(_ left: UnsafeBufferPointer<UInt32>, _ right: FoldedWord) -> Int {
    right.withUnsafeBufferPointer { right in
      for index in 0..<min(left.count, right.count) where left[index] != right[index] {
        return left[index] < right[index] ? -1 : 1
      }
      return left.count - right.count
    }
  }

  /// Whether `word` starts with `prefix`.
  static func starts(_ word: UnsafeBufferPointer<UInt32>, with prefix: FoldedWord) -> Bool {
    guard word.count >= prefix.count else { return false }
    return prefix.withUnsafeBufferPointer { prefix in
      for index in 0..<prefix.count where word[index] != prefix[index] { return false }
      return true
    }
  }

  /// The first position in the dictionary where `isAtOrAfter` holds; it must be false then
  /// true along the sorted words.
  private func firstWord(where isAtOrAfter: (UnsafeBufferPointer<UInt32>) -> Bool) -> Int {
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
}
