// Matching and ranking of one query against one catalog index, in four tiers, best first:
// a name starts with the query; every query word starts a word; every query word is inside a
// word; every query word is within a typo of a word. Within a tier: popularity, then id.

extension CatalogIndex {
  /// At most `limit` items matching `term`, best first. A term without letters or digits
  /// matches nothing.
  ///
  /// Ranking tiers, each complete before the next starts:
  /// 1. a name (track, collection or artist) starts with the folded query ("taylor sw");
  /// 2. every query word starts some word of the names ("swift tay");
  /// 3. every query word starts or lies inside a word, one at least inside ("aylor");
  /// 4. every query word matches as above or within its typo allowance ("tylor").
  /// Within a tier items come by popularity (highest first), then by id (lowest first).
  func search(_ term: String, limit: Int) -> [SearchItem] {
    guard limit > 0, !items.isEmpty else { return [] }
    let query = TextFolding.words(term)
    guard !query.isEmpty else { return [] }
    var search = CatalogSearch(index: self, query: query, limit: limit)
    search.run()
    return search.ranks.map { items[Int($0)] }
  }
}

/// The state of one search: the query's word ranges and the ranks found so far.
///
/// Each tier walks the posting lists of its *driver* — the query word with the fewest
/// candidate items — in rank order and checks the other words on each candidate's own words,
/// stopping once `limit` items are found. Later tiers re-walk earlier tiers' lists; they only
/// run when the earlier tiers did not fill the answer, which means those lists were short.
struct CatalogSearch {
  private let index: CatalogIndex
  private let query: [FoldedWord]
  private let limit: Int
  /// Per query word, the ids of the words it starts.
  private let prefixes: [Range<Int>]
  /// The answer so far, best first.
  private(set) var ranks: [Int32] = []

  init(index: CatalogIndex, query: [FoldedWord], limit: Int) {
    self.index = index
    self.query = query
    self.limit = limit
    prefixes = query.map { index.wordIds(startingWith: $0) }
  }

  mutating func run() {
    let nameMatches = collectNamePrefixMatches()
    guard ranks.count < limit else { return }
    collectWordPrefixMatches(skipping: nameMatches)
    guard ranks.count < limit else { return }

    // Per query word, each dictionary word's tier: 1 prefix, 2 inside, 3 typo, 0 no match.
    var tiers = prefixes.map { range in
      var tier = [UInt8](repeating: 0, count: index.words.count)
      for id in range { tier[id] = 1 }
      return tier
    }
    var looseWords = Array(repeating: [Int](), count: query.count)
    if add(tier: 2, words: { index.wordIds(containing: $0) }, to: &tiers, &looseWords) {
      collectLooseMatches(tier: 2, tiers: tiers, looseWords: looseWords)
      guard ranks.count < limit else { return }
    }
    if add(tier: 3, words: { index.wordIds(near: $0) }, to: &tiers, &looseWords) {
      collectLooseMatches(tier: 3, tiers: tiers, looseWords: looseWords)
    }
  }

  // MARK: Tier 1: a name starts with the query

  /// Appends the items with a name starting with the query; returns them (ascending ranks).
  private mutating func collectNamePrefixMatches() -> [Int32] {
    let last = query.count - 1
    guard !prefixes[last].isEmpty else { return [] }
    var found: [Int32] = []
    if last == 0 {
      var merge = PostingMerge(items: index.nameStartItems, start: index.nameStartStart, words: prefixes[0])
      while found.count < limit, let rank = merge.next() { found.append(rank) }
    } else {
      // All but the last query word must be whole words of the name, in order.
      var exact: [Int32] = []
      for word in query.dropLast() {
        guard let id = index.wordId(of: word) else { return [] }
        exact.append(Int32(id))
      }
      let first = Int(exact[0])
      for position in index.nameStartStart[first]..<index.nameStartStart[first + 1] where found.count < limit {
        let rank = index.nameStartItems[position]
        if hasName(rank, startingWith: exact, then: prefixes[last]) { found.append(rank) }
      }
    }
    ranks.append(contentsOf: found)
    return found
  }

  private func hasName(_ rank: Int32, startingWith exact: [Int32], then last: Range<Int>) -> Bool {
    let base = CatalogIndex.namesPerItem * Int(rank)
    for name in 0..<CatalogIndex.namesPerItem {
      let start = index.nameBounds[base + name]
      guard index.nameBounds[base + name + 1] - start > exact.count else { continue }
      if exact.indices.allSatisfy({ index.tokens[start + $0] == exact[$0] })
        && last.contains(Int(index.tokens[start + exact.count])) {
        return true
      }
    }
    return false
  }

  // MARK: Tier 2: every query word starts a word

  private mutating func collectWordPrefixMatches(skipping nameMatches: [Int32]) {
    guard prefixes.allSatisfy({ !$0.isEmpty }) else { return }
    let driver = prefixes.indices.min { index.postingCount(prefixes[$0]) < index.postingCount(prefixes[$1]) } ?? 0
    var merge = PostingMerge(items: index.postingItems, start: index.postingStart, words: prefixes[driver])
    var skipped = 0
    while ranks.count < limit, let rank = merge.next() {
      // Both lists ascend, so one pointer finds the items tier 1 already took.
      while skipped < nameMatches.count, nameMatches[skipped] < rank { skipped += 1 }
      if skipped < nameMatches.count, nameMatches[skipped] == rank { continue }
      let words = wordsOf(rank)
      let matchesAll = prefixes.indices.allSatisfy { query in
        query == driver || words.contains { prefixes[query].contains(Int($0)) }
      }
      if matchesAll { ranks.append(rank) }
    }
  }

  // MARK: Tiers 3 and 4: inside a word, within a typo

  /// Marks the words `lookup` finds for each query word with `tier` where they have none yet;
  /// true when any was marked, that is when the tier can find anything new.
  private func add(
    tier: UInt8, words lookup: (FoldedWord) -> [Int32], to tiers: inout [[UInt8]], _ looseWords: inout [[Int]]
  ) -> Bool {
    var added = false
    for query in query.indices {
      for id in lookup(self.query[query]) where tiers[query][Int(id)] == 0 {
        tiers[query][Int(id)] = tier
        looseWords[query].append(Int(id))
        added = true
      }
    }
    return added
  }

  /// Appends the items whose tier is exactly `tier`: every query word matches at `tier` or
  /// better and one only at `tier`. Better items were all taken by the earlier tiers.
  private mutating func collectLooseMatches(tier: UInt8, tiers: [[UInt8]], looseWords: [[Int]]) {
    let counts = query.indices.map { query in
      looseWords[query].reduce(index.postingCount(prefixes[query])) { $0 + index.postingCount($1..<$1 + 1) }
    }
    guard !counts.contains(0) else { return }
    let driver = counts.indices.min { counts[$0] < counts[$1] } ?? 0
    var merge = PostingMerge(
      items: index.postingItems, start: index.postingStart, words: Array(prefixes[driver]) + looseWords[driver])
    while ranks.count < limit, let rank = merge.next() {
      if self.tier(of: rank, tiers) == tier { ranks.append(rank) }
    }
  }

  /// The worst of the query words' best tiers on the item's words; 0 when a word misses.
  private func tier(of rank: Int32, _ tiers: [[UInt8]]) -> UInt8 {
    let words = wordsOf(rank)
    var worst: UInt8 = 1
    for wordTiers in tiers {
      var best: UInt8 = 0
      for word in words {
        let tier = wordTiers[Int(word)]
        if tier != 0 && (best == 0 || tier < best) { best = tier }
      }
      if best == 0 { return 0 }
      worst = max(worst, best)
    }
    return worst
  }

  /// All words of the item's names.
  private func wordsOf(_ rank: Int32) -> ArraySlice<Int32> {
    let base = CatalogIndex.namesPerItem * Int(rank)
    return index.tokens[index.nameBounds[base]..<index.nameBounds[base + CatalogIndex.namesPerItem]]
  }
}
