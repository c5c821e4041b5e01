// How each item of an answer matched, and the answer when nothing matches the whole query: the
// longest run of its words that does, so that a category is empty only when no word of the query
// matches anything in it.
import Pipeline

extension CatalogIndex {
  /// The items of `ranks`, each with how it matched `query` (`SearchMatch`): tier 1 exact,
  /// tiers 2–4 prefix, tiers 5–8 typo with the edits its words take.
  func items(_ ranks: TieredRanks, for query: CatalogQuery) -> [SearchItem] {
    var items: [SearchItem] = []
    items.reserveCapacity(ranks.count)
    for (index, rank) in ranks.ranks.enumerated() {
      var item = store.item(at: Int(positions[Int(rank)]))
      let tier = Int(ranks.tiers[index])
      item.match =
        tier == 1
        ? .exact : tier < CatalogRanking.firstTypoTier ? .prefix : .typo(typoEdits(of: rank, for: query))
      items.append(item)
    }
    return items
  }

  /// The edits the item at `rank` takes in all: per query word, the fewest between it and a
  /// word of the item's names (for the last, the start of one), none for a word it starts.
  private func typoEdits(of rank: Int32, for query: CatalogQuery) -> Int {
    let first = Int(entryBounds[Int(entries[Int(rank)])])
    let end = Int(entryBounds[Int(entries[Int(rank) + 1])])
    let nameWords = (first..<end).map { Array(words[Int(tokens[$0])]) }
    var total = 0
    for number in query.words.indices {
      let word = query.words[number]
      let isLast = number == query.words.count - 1
      if nameWords.contains(where: { query.word(number, starts: $0) }) { continue }
      let allowance = CatalogRanking.typoAllowance(forLength: word.count)
      let fewest = (1...max(allowance, 1)).first { bound in
        nameWords.contains { name in
          EditDistance.isWithin(
            bound, word, name, prefix: isLast, leadingLetters: CatalogRanking.leadingLetters,
            leadingEdits: CatalogRanking.leadingTypos)
        }
      }
      total += fewest ?? allowance
    }
    return total
  }

  /// When nothing matches the whole of `query` (of two words or more): the longest run of its
  /// words, from the start, that matches something, among the words that each match something
  /// alone (`CatalogRanking.partialRun`), and the answer for them; nil when no word matches
  /// anything.
  ///
  /// The parts' answers are kept: while the last word is typed, each keystroke tries the same
  /// earlier words alone and the same runs of them again, and their answers do not change.
  func partialSearch(_ query: CatalogQuery, limit: Int, categories: UInt32) -> ([FoldedWord], TieredRanks)? {
    var found: TieredRanks?
    let words = CatalogRanking.partialRun(of: query) { part in
      let answer = keptSearch(part, limit: limit, categories: categories)
      if !answer.isEmpty { found = answer }
      return !answer.isEmpty
    }
    guard let words, let found else { return nil }
    return (words, found)
  }

  /// `rankedSearch(_:limit:categories:)`, from `recentParts` when kept there (the search runs
  /// outside the lock).
  private func keptSearch(_ part: CatalogQuery, limit: Int, categories: UInt32) -> TieredRanks {
    // A part holding a word longer than any name's is searched, not kept: a term may hold a
    // thousand letters, and a key of kilobytes in each of the memo's slots would add megabytes.
    guard part.words.allSatisfy({ $0.count <= CatalogQuery.splitWordMaximum }) else {
      return rankedSearch(part, limit: limit, categories: categories)
    }
    let key = PartOfQuery(words: part.words, lastAsTyped: part.lastAsTyped, limit: limit, categories: categories)
    if let known = recentParts.withLock({ $0.answer(for: key) }) { return known }
    let answer = rankedSearch(part, limit: limit, categories: categories)
    recentParts.withLock { $0.keep(answer, for: key) }
    return answer
  }
}

/// What a search's answer depends on besides the index: a part of a query a partial answer
/// tries, and the search it is tried for.
struct PartOfQuery: Hashable, Sendable {
  var words: [FoldedWord]
  var lastAsTyped: FoldedWord
  var limit: Int
  var categories: UInt32
}

extension TextFolding {
  /// A folded word as a string, its scalars as they are.
  static func string(of word: FoldedWord) -> String {
    var text = ""
    text.unicodeScalars.append(contentsOf: word.compactMap(Unicode.Scalar.init))
    return text
  }
}
