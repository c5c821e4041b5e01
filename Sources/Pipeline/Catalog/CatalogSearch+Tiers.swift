// Tiers 3–5 of a catalog search: every query word starts a word; every query word starts or
// lies inside a word; every query word is also allowed a typo. Each walks one posting list in
// rank order and checks the other query words on each candidate's own words.

extension CatalogSearch {
  // MARK: Tier 3: every query word starts a word

  /// Appends the items where every query word starts a word, other than `nameMatches`.
  mutating func collectWordPrefixMatches(skipping nameMatches: [Int32]) {
    guard prefixes.allSatisfy({ !$0.isEmpty }) else { return }
    let driver =
      prefixes.indices.min {
        index.postings.count(in: prefixes[$0]) < index.postings.count(in: prefixes[$1])
      } ?? 0
    var merge = PostingMerge(index.postings, words: prefixes[driver])
    var skipped = 0
    while ranks.count < limit, let rank = merge.next() {
      // Both lists ascend, so one pointer finds the items tiers 1 and 2 already took.
      while skipped < nameMatches.count, nameMatches[skipped] < rank { skipped += 1 }
      if skipped < nameMatches.count, nameMatches[skipped] == rank { continue }
      if startsWords(rank, except: driver) { ranks.append(rank) }
    }
  }

  /// Whether every query word but `driver` starts a word of the item, read from its words.
  private func startsWords(_ rank: Int32, except driver: Int) -> Bool {
    let words = wordRange(of: rank)
    let bits = itemWordBits[Int(rank)]
    for query in prefixes.indices where query != driver {
      guard bits & prefixBits[query] != 0 else { return false }
      let range = prefixes[query]
      var position = words.lowerBound
      while position < words.upperBound, !range.contains(Int(tokens[position])) { position += 1 }
      if position == words.upperBound { return false }
    }
    return true
  }

  // MARK: Tiers 4 and 5: inside a word, within a typo

  /// Marks the words `lookup` finds for each query word as matching it by `match` where they
  /// match no better, and adds them to `looseWords`; returns them per query word (none: the
  /// tier of `match` can find nothing new).
  func add(
    _ match: UInt8, words lookup: (FoldedWord) -> [Int32], to matches: inout [UInt8], _ looseWords: inout [[Int]]
  ) -> [[Int]] {
    var added = Array(repeating: [Int](), count: query.count)
    for query in query.indices {
      for id in lookup(self.query[query]) where matches[query * wordCount + Int(id)] == Match.none {
        matches[query * wordCount + Int(id)] = match
        added[query].append(Int(id))
      }
      looseWords[query].append(contentsOf: added[query])
    }
    return added
  }

  /// Appends the items whose loosest word match is exactly `match` (tier 4 for `inside`, 5 for
  /// `typo`): every query word matches a word that well or better, one only that well. Better
  /// items were all taken by the earlier tiers.
  ///
  /// Candidates come from the driver's lists, or — when shorter — from the lists of the words
  /// new at this tier (`newWords`), since a qualifying item has one of those.
  mutating func collectLooseMatches(
    _ match: UInt8, matches: [UInt8], looseWords: [[Int]], newWords: [[Int]]
  ) {
    let counts = query.indices.map { query in
      looseWords[query].reduce(index.postings.count(in: prefixes[query])) { $0 + index.postings.count(in: $1..<$1 + 1) }
    }
    guard !counts.contains(0) else { return }
    let driver = counts.indices.min { counts[$0] < counts[$1] } ?? 0
    let newWordIds = newWords.joined()
    let newCount = newWordIds.reduce(0) { $0 + index.postings.count(in: $1..<$1 + 1) }
    let candidates = newCount < counts[driver] ? Array(newWordIds) : Array(prefixes[driver]) + looseWords[driver]
    let queryBits = query.indices.map { prefixBits[$0] | Self.bits(of: looseWords[$0]) }
    var merge = PostingMerge(index.postings, words: candidates)
    while ranks.count < limit, let rank = merge.next() {
      let bits = itemWordBits[Int(rank)]
      guard queryBits.allSatisfy({ bits & $0 != 0 }) else { continue }
      if loosestMatch(of: rank, matches) == match { ranks.append(rank) }
    }
  }

  /// Over the query words, the loosest of each one's best match among the item's words;
  /// `Match.none` when some query word matches none of them.
  private func loosestMatch(of rank: Int32, _ matches: [UInt8]) -> UInt8 {
    let words = wordRange(of: rank)
    var loosest = Match.prefix
    for query in query.indices {
      let base = query * wordCount
      var best = Match.none
      for position in words {
        let match = matches[base + Int(tokens[position])]
        if match != Match.none && (best == Match.none || match < best) { best = match }
      }
      if best == Match.none { return Match.none }
      loosest = max(loosest, best)
    }
    return loosest
  }
}
