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
    guard limit > 0, !positions.isEmpty else { return [] }
    let query = TextFolding.words(term)
    guard !query.isEmpty else { return [] }
    var search = CatalogSearch(index: self, query: query, limit: limit)
    search.run()
    return search.ranks.map { store.item(at: Int(positions[Int($0)])) }
  }
}

/// How a dictionary word matches a query word, tightest first; stored as bytes in one flat
/// array per search.
private enum Match {
  static let none: UInt8 = 0
  /// The word starts with the query word.
  static let prefix: UInt8 = 1
  /// The query word (3+ characters) lies inside the word.
  static let inside: UInt8 = 2
  /// The word is within the query word's typo allowance.
  static let typo: UInt8 = 3
}

/// The state of one search: the query's word ranges and the ranks found so far.
///
/// Each tier walks the posting lists of its *driver* — the query word with the fewest
/// candidate items — in rank order and checks the other words on each candidate's own words,
/// stopping once `limit` items are found. Later tiers re-walk earlier tiers' lists; they only
/// run when the earlier tiers did not fill the answer, which means those lists were short.
/// Before checking a candidate's words one by one, the item's `itemWordBits` must share a bit
/// with every query word's matching words, which rejects most candidates in a few instructions.
struct CatalogSearch {
  private let index: CatalogIndex
  private let query: [FoldedWord]
  private let limit: Int
  /// Per query word, the ids of the words it starts.
  private let prefixes: [Range<Int>]
  /// The index's token arrays, held directly so the hot loops index them without going
  /// through the class.
  private let tokens: [Int32]
  private let nameBounds: [Int32]
  private let wordCount: Int
  private let itemWordBits: [UInt64]
  /// Per query word, the `wordBit`s of the words it starts (all bits when there are many).
  private let prefixBits: [UInt64]
  /// The answer so far, best first.
  private(set) var ranks: [Int32] = []

  init(index: CatalogIndex, query: [FoldedWord], limit: Int) {
    self.index = index
    self.query = query
    self.limit = limit
    prefixes = query.map { index.wordIds(startingWith: $0) }
    tokens = index.tokens
    nameBounds = index.nameBounds
    wordCount = index.words.count
    itemWordBits = index.itemWordBits
    prefixBits = prefixes.map { Self.bits(of: $0) }
  }

  /// The union of the words' bits; past 64 words nearly every bit would be set anyway.
  private static func bits(of words: some Collection<Int>) -> UInt64 {
    guard words.count <= 64 else { return ~0 }
    return words.reduce(0) { $0 | CatalogIndex.wordBit(Int32($1)) }
  }

  /// Runs the tiers in order until `limit` ranks are found or every tier is exhausted.
  mutating func run() {
    let nameMatches = collectNamePrefixMatches()
    guard ranks.count < limit else { return }
    collectWordPrefixMatches(skipping: nameMatches)
    guard ranks.count < limit else { return }

    // Per query word q, how each dictionary word w matches it, at `matches[q * wordCount + w]`
    // (a `Match` value). One flat array keeps the item checks cheap.
    var matches = [UInt8](repeating: Match.none, count: query.count * wordCount)
    for (query, range) in prefixes.enumerated() {
      for id in range { matches[query * wordCount + id] = Match.prefix }
    }
    var looseWords = Array(repeating: [Int](), count: query.count)
    let inside = add(Match.inside, words: { index.wordIds(containing: $0) }, to: &matches, &looseWords)
    if inside.contains(where: { !$0.isEmpty }) {
      collectLooseMatches(Match.inside, matches: matches, looseWords: looseWords, newWords: inside)
      guard ranks.count < limit else { return }
    }
    let near = add(Match.typo, words: { index.wordIds(near: $0) }, to: &matches, &looseWords)
    if near.contains(where: { !$0.isEmpty }) {
      collectLooseMatches(Match.typo, matches: matches, looseWords: looseWords, newWords: near)
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
      // All but the last query word must be whole words of the name, in order. Candidates come
      // from the shortest of: names starting with the first word, items with any of the whole
      // words, items with a word the last query word starts.
      var exact: [Int32] = []
      for word in query.dropLast() {
        guard let id = index.wordId(of: word) else { return [] }
        exact.append(Int32(id))
      }
      let firstWord = Int(exact[0])..<Int(exact[0]) + 1
      let nameStartCount = Int(index.nameStartStart[firstWord.upperBound] - index.nameStartStart[firstWord.lowerBound])
      let containing = (exact.map { Int($0)..<Int($0) + 1 } + [prefixes[last]])
        .min { index.postingCount($0) < index.postingCount($1) } ?? firstWord
      var merge = index.postingCount(containing) < nameStartCount
        ? PostingMerge(items: index.postingItems, start: index.postingStart, words: containing)
        : PostingMerge(items: index.nameStartItems, start: index.nameStartStart, words: firstWord)
      // An item lacking the bit of a whole word, or of every word the last one starts, fails.
      let exactBits = exact.map { CatalogIndex.wordBit($0) }
      while found.count < limit, let rank = merge.next() {
        let bits = itemWordBits[Int(rank)]
        guard bits & prefixBits[last] != 0, exactBits.allSatisfy({ bits & $0 != 0 }) else { continue }
        if hasName(rank, startingWith: exact, then: prefixes[last]) { found.append(rank) }
      }
    }
    ranks.append(contentsOf: found)
    return found
  }

  private func hasName(_ rank: Int32, startingWith exact: [Int32], then last: Range<Int>) -> Bool {
    let base = CatalogIndex.namesPerItem * Int(rank)
    for name in 0..<CatalogIndex.namesPerItem {
      let start = Int(nameBounds[base + name])
      guard Int(nameBounds[base + name + 1]) - start > exact.count else { continue }
      var position = 0
      while position < exact.count, tokens[start + position] == exact[position] { position += 1 }
      if position == exact.count && last.contains(Int(tokens[start + position])) { return true }
    }
    return false
  }

  // MARK: Tier 2: every query word starts a word

  /// Appends the items where every query word starts a word, other than `nameMatches`.
  private mutating func collectWordPrefixMatches(skipping nameMatches: [Int32]) {
    guard prefixes.allSatisfy({ !$0.isEmpty }) else { return }
    let driver = prefixes.indices.min { index.postingCount(prefixes[$0]) < index.postingCount(prefixes[$1]) } ?? 0
    var merge = PostingMerge(items: index.postingItems, start: index.postingStart, words: prefixes[driver])
    var skipped = 0
    while ranks.count < limit, let rank = merge.next() {
      // Both lists ascend, so one pointer finds the items tier 1 already took.
      while skipped < nameMatches.count, nameMatches[skipped] < rank { skipped += 1 }
      if skipped < nameMatches.count, nameMatches[skipped] == rank { continue }
      let words = wordRange(of: rank)
      let bits = itemWordBits[Int(rank)]
      var matchesAll = true
      for query in prefixes.indices where query != driver && matchesAll {
        guard bits & prefixBits[query] != 0 else {
          matchesAll = false
          break
        }
        let range = prefixes[query]
        var position = words.lowerBound
        while position < words.upperBound, !range.contains(Int(tokens[position])) { position += 1 }
        matchesAll = position < words.upperBound
      }
      if matchesAll { ranks.append(rank) }
    }
  }

  // MARK: Tiers 3 and 4: inside a word, within a typo

  /// Marks the words `lookup` finds for each query word as matching it by `match` where they
  /// match no better, and adds them to `looseWords`; returns them per query word (none: the
  /// tier of `match` can find nothing new).
  private func add(
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

  /// Appends the items whose loosest word match is exactly `match` (tier 3 for `inside`, 4 for
  /// `typo`): every query word matches a word that well or better, one only that well. Better
  /// items were all taken by the earlier tiers.
  ///
  /// Candidates come from the driver's lists, or — when shorter — from the lists of the words
  /// new at this tier (`newWords`), since a qualifying item has one of those.
  private mutating func collectLooseMatches(
    _ match: UInt8, matches: [UInt8], looseWords: [[Int]], newWords: [[Int]]
  ) {
    let counts = query.indices.map { query in
      looseWords[query].reduce(index.postingCount(prefixes[query])) { $0 + index.postingCount($1..<$1 + 1) }
    }
    guard !counts.contains(0) else { return }
    let driver = counts.indices.min { counts[$0] < counts[$1] } ?? 0
    let newWordIds = newWords.joined()
    let newCount = newWordIds.reduce(0) { $0 + index.postingCount($1..<$1 + 1) }
    let candidates = newCount < counts[driver] ? Array(newWordIds) : Array(prefixes[driver]) + looseWords[driver]
    let queryBits = query.indices.map { query in
      prefixes[query].count > 64 ? ~0 : prefixBits[query] | Self.bits(of: looseWords[query])
    }
    var merge = PostingMerge(items: index.postingItems, start: index.postingStart, words: candidates)
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

  /// Where all words of the item's names lie in `tokens`.
  private func wordRange(of rank: Int32) -> Range<Int> {
    let base = CatalogIndex.namesPerItem * Int(rank)
    return Int(nameBounds[base])..<Int(nameBounds[base + CatalogIndex.namesPerItem])
  }
}
