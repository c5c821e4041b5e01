// Matching and ranking of one query against one catalog index, in five tiers, best first:
// a name is the query; a name starts with it; every query word starts a word; every query word
// is inside a word; every query word is within a typo of a word (`CatalogRanking` defines it).

extension CatalogIndex {
  /// At most `limit` items matching `term`, best first. A term without letters or digits
  /// matches nothing.
  ///
  /// The answer `CatalogRanking` defines: five tiers, each complete before the next starts,
  /// typos only when the first four find nothing, within a tier by popularity, then id.
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
enum Match {
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
/// run when the earlier tiers did not fill the answer. Before checking a candidate's words one
/// by one, the item's `itemWordBits` must share a bit with every query word's matching words,
/// which rejects many candidates in a few instructions.
struct CatalogSearch {
  let index: CatalogIndex
  let query: [FoldedWord]
  let limit: Int
  /// Per query word, the ids of the words it starts.
  let prefixes: [Range<Int>]
  /// The index's token arrays, held directly so the hot loops index them without going
  /// through the class.
  let tokens: [Int32]
  let nameBounds: [Int32]
  let wordCount: Int
  let itemWordBits: [UInt64]
  /// Per query word, the `wordBit`s of the words it starts (all bits when there are many).
  let prefixBits: [UInt64]
  /// The answer so far, best first.
  var ranks: [Int32] = []

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
  static func bits(of words: some Collection<Int>) -> UInt64 {
    guard words.count <= 64 else { return ~0 }
    return words.reduce(0) { $0 | CatalogIndex.wordBit(Int32($1)) }
  }

  /// Runs the tiers in order until `limit` ranks are found or every tier is exhausted.
  mutating func run() {
    let nameMatches = collectNameMatches()
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
    let insideWords = add(Match.inside, words: { index.wordIds(containing: $0) }, to: &matches, &looseWords)
    if insideWords.contains(where: { !$0.isEmpty }) {
      collectLooseMatches(Match.inside, matches: matches, looseWords: looseWords, newWords: insideWords)
      guard ranks.count < limit else { return }
    }
    // Typos only when nothing better was found (`CatalogRanking`, rule 2).
    guard ranks.isEmpty else { return }
    let typoWords = add(Match.typo, words: { index.wordIds(near: $0) }, to: &matches, &looseWords)
    if typoWords.contains(where: { !$0.isEmpty }) {
      collectLooseMatches(Match.typo, matches: matches, looseWords: looseWords, newWords: typoWords)
    }
  }

  // MARK: Tiers 1 and 2: a name is the query, a name starts with it

  /// Appends the items with a name that is the query, then the others with a name starting with
  /// it; returns both together, ascending.
  private mutating func collectNameMatches() -> [Int32] {
    let exact = exactNameMatches()
    ranks.append(contentsOf: exact)
    let last = query.count - 1
    guard ranks.count < limit, !prefixes[last].isEmpty else { return exact }
    var found: [Int32] = []
    if last == 0 {
      var merge = PostingMerge(index.nameStarts, words: prefixes[0])
      while found.count < limit, let rank = merge.next() { found.append(rank) }
    } else {
      found = namesStartingWithWords(last: last)
    }
    // `found` holds the first `limit` items of tier 2 with the exact ones among them, so it
    // has at least `limit - exact.count` others.
    let others = found.filter { !exact.contains($0) }.prefix(limit - exact.count)
    ranks.append(contentsOf: others)
    return (exact + others).sorted()
  }

  /// Tier 1: the items with a name whose words are the query's, ascending; the candidates are
  /// the items with a name starting with the query's first word or ending with its last,
  /// whichever are fewer.
  private func exactNameMatches() -> [Int32] {
    var ids: [Int32] = []
    for word in query {
      guard let id = index.wordId(of: word) else { return [] }
      ids.append(Int32(id))
    }
    let (first, last) = (Int(ids[0])..<Int(ids[0]) + 1, Int(ids[ids.count - 1])..<Int(ids[ids.count - 1]) + 1)
    var merge =
      index.nameStarts.count(in: first) <= index.nameEnds.count(in: last)
      ? PostingMerge(index.nameStarts, words: first) : PostingMerge(index.nameEnds, words: last)
    var found: [Int32] = []
    while found.count < limit, let rank = merge.next() {
      let base = CatalogIndex.namesPerItem * Int(rank)
      let isExact = (base..<base + CatalogIndex.namesPerItem).contains { name in
        tokens[Int(nameBounds[name])..<Int(nameBounds[name + 1])].elementsEqual(ids)
      }
      if isExact { found.append(rank) }
    }
    return found
  }

  /// Tier 2 for several query words: all but the last must be whole words of the name, in
  /// order, and the last must start the next word.
  ///
  /// Candidates are the items with the rarest of the whole words or of the words the last one
  /// starts. A candidate lacking the bit of a whole word, or of every word the last one starts,
  /// fails before its names are read.
  private func namesStartingWithWords(last: Int) -> [Int32] {
    var exact: [Int32] = []
    for word in query.dropLast() {
      guard let id = index.wordId(of: word) else { return [] }
      exact.append(Int32(id))
    }
    let containing =
      (exact.map { Int($0)..<Int($0) + 1 } + [prefixes[last]])
      .min { index.postings.count(in: $0) < index.postings.count(in: $1) } ?? prefixes[last]
    var merge = PostingMerge(index.postings, words: containing)
    let exactBits = exact.map { CatalogIndex.wordBit($0) }
    var found: [Int32] = []
    while found.count < limit, let rank = merge.next() {
      let bits = itemWordBits[Int(rank)]
      guard bits & prefixBits[last] != 0, exactBits.allSatisfy({ bits & $0 != 0 }) else { continue }
      if hasName(rank, startingWith: exact, then: prefixes[last]) { found.append(rank) }
    }
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

  /// Where all words of the item's names lie in `tokens`.
  func wordRange(of rank: Int32) -> Range<Int> {
    let base = CatalogIndex.namesPerItem * Int(rank)
    return Int(nameBounds[base])..<Int(nameBounds[base + CatalogIndex.namesPerItem])
  }
}
