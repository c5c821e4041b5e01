// Matching and ranking of one query against one catalog index, in the tiers `CatalogRanking`
// defines: a name is the query; a name starts with it; every query word starts a word (of the
// primary names, then of all); and, only when those find nothing, the same with typos.
import Pipeline

extension CatalogIndex {
  /// At most `limit` items matching `term`, best first. A term without letters or digits
  /// matches nothing.
  ///
  /// The answer `CatalogRanking` defines: eight tiers, each complete before the next starts,
  /// typos only when the first four find nothing, within a tier by popularity, then id.
  func search(_ term: String, limit: Int) -> [SearchItem] {
    search(CatalogQuery(term), limit: limit, categories: typoCategory)
  }

  /// The same for a term already folded, in a search of `categories` (bit `n`: the catalog's
  /// index `n`; `CatalogSource.typoCategories(of:)`), whose typos one walk of the catalog's trie
  /// finds for all of them.
  ///
  /// Each item says how it matched (`SearchItem.match`). When nothing matches the whole query,
  /// the answer is a partial one (``partialSearch(_:limit:categories:)``).
  func search(_ query: CatalogQuery, limit: Int, categories: UInt32) -> [SearchItem] {
    guard limit > 0, positions.count > 0, !query.isEmpty else { return [] }
    let whole = rankedSearch(query, limit: limit, categories: categories)
    guard whole.isEmpty, query.words.count > 1 else { return items(whole, for: query) }
    guard let (words, partial) = partialSearch(query, limit: limit, categories: categories) else { return [] }
    let match = SearchMatch(.partial, matchedWords: words.map(TextFolding.string(of:)))
    return partial.ranks.map { rank in
      var item = store.item(at: Int(positions[Int(rank)]))
      item.match = match
      return item
    }
  }
}

/// What one search reads: the words each query word starts, and the index's arrays.
///
/// Each tier walks the posting lists of its *driver* — the query word with the fewest
/// candidate items — in rank order and checks the other words on each candidate's own words,
/// stopping once `limit` items are found. Before checking a candidate's words one by one, the
/// item's `itemWordBits` must share a bit with every query word's matching words, which rejects
/// many candidates in a few instructions.
///
/// The tiers are not mutating: they append to a list of ranks passed in, so that calling a
/// helper from a tier's loop does not copy the whole search first (a mutating method must,
/// since the helper could otherwise see the search change under it).
struct CatalogSearch {
  let index: CatalogIndex
  let query: CatalogQuery
  let limit: Int
  /// The categories of the search this one is part of, for the typo search.
  let categories: UInt32
  /// Per query word, the ids of the words it starts.
  let starts: [CatalogWordSet]
  /// Per query word, the id of the word it is; nil when no name has that word.
  let exactIds: [Int?]
  /// The index's arrays, held directly so the hot loops index them without going through the
  /// class.
  let tokens: IndexTable<Int32>
  let entryBounds: IndexTable<Int32>
  let entries: IndexTable<Int32>
  let secondaryEntries: IndexTable<Int32>
  let itemWordBits: IndexTable<UInt64>
  /// Per query word, the `wordBit`s of the words it starts (all bits when there are many).
  let startBits: [UInt64]

  init(index: CatalogIndex, query: CatalogQuery, limit: Int, categories: UInt32) {
    self.index = index
    self.query = query
    self.limit = limit
    self.categories = categories
    var starts: [CatalogWordSet] = []
    var exactIds: [Int?] = []
    starts.reserveCapacity(query.words.count)
    exactIds.reserveCapacity(query.words.count)
    for word in query.words.indices {
      // The first word a query word starts is the word itself, if there is one: no search of
      // the dictionary of its own for the exact tiers.
      let own = index.wordIds(startingWith: query.words[word])
      starts.append(index.wordsStarted(by: query, word: word, own: own))
      exactIds.append(
        own.isEmpty || index.words[own.lowerBound].count != query.words[word].count ? nil : own.lowerBound)
    }
    self.starts = starts
    self.exactIds = exactIds
    tokens = index.tokens
    entryBounds = index.entryBounds
    entries = index.entries
    secondaryEntries = index.secondaryEntries
    itemWordBits = index.itemWordBits
    startBits = starts.map(Self.bits)
  }

  /// An empty list of ranks with room for `limit` of them (up to a few hundred): a tier's list
  /// grown one rank at a time was reallocated four or five times per search.
  static func rankList(_ limit: Int) -> [Int32] {
    var list: [Int32] = []
    list.reserveCapacity(min(limit, 256))
    return list
  }

  /// The union of the words' bits; past 64 words nearly every bit would be set anyway.
  static func bits(of words: CatalogWordSet) -> UInt64 {
    guard words.count <= 64 else { return ~0 }
    return words.ids.reduce(0) { $0 | CatalogIndex.wordBit(Int32($1)) }
  }

  /// The answer, best first: the tiers in order until `limit` ranks are found or every tier is
  /// exhausted; with `typos` false, tiers 1–4 only.
  func run(typos: Bool = true) -> TieredRanks {
    var ranks = TieredRanks(capacity: limit)
    let nameMatches = collectNameMatches(into: &ranks)
    guard ranks.count < limit else { return ranks }
    collectWordMatches(skipping: nameMatches, into: &ranks)
    // Typos only when nothing better was found (`CatalogRanking`).
    guard ranks.isEmpty, typos else { return ranks }
    collectTypoMatches(into: &ranks)
    return ranks
  }

  /// Tiers 1 and 2 alone: the items with a primary name that is the query or starts with it.
  func runNames() -> TieredRanks {
    var ranks = TieredRanks(capacity: limit)
    _ = collectNameMatches(into: &ranks)
    return ranks
  }

  // MARK: Tiers 1 and 2: a primary name is the query, a primary name starts with it

  /// Appends to `ranks` the items with a primary name that is the query, then the others with
  /// one starting with it; returns both together, ascending.
  private func collectNameMatches(into ranks: inout TieredRanks) -> [Int32] {
    let exact = exactNameMatches()
    ranks.append(contentsOf: exact, tier: 1)
    let last = query.words.count - 1
    guard ranks.count < limit, !starts[last].isEmpty else { return exact }
    var found = Self.rankList(limit)
    if last == 0 {
      var candidates = candidates(in: index.nameStarts, of: starts[0], alone: true)
      while found.count < limit, let rank = candidates.next() {
        if candidates.isEveryRank {
          guard primaryEntries(of: rank).contains(where: { startsName($0, with: [], then: starts[0].contains) })
          else { continue }
        }
        found.append(rank)
      }
    } else {
      found = namesStartingWithWords(last: last)
    }
    // `found` holds the first `limit` items of tier 2 with the exact ones among them, so it
    // has at least `limit - exact.count` others.
    let others = found.filter { !exact.contains($0) }.prefix(limit - exact.count)
    ranks.append(contentsOf: others, tier: 2)
    return (exact + others).sorted()
  }

  /// Tier 1: the items with a primary name whose words are the query's, ascending; the
  /// candidates are the items with a primary name starting with the query's first word or
  /// ending with its last, whichever are fewer.
  private func exactNameMatches() -> [Int32] {
    var ids: [Int32] = []
    for id in exactIds {
      guard let id else { return [] }
      ids.append(Int32(id))
    }
    let (first, last) = (Int(ids[0])..<Int(ids[0]) + 1, Int(ids[ids.count - 1])..<Int(ids[ids.count - 1]) + 1)
    var merge =
      index.nameStarts.count(in: first) <= index.nameEnds.count(in: last)
      ? PostingMerge(index.nameStarts, words: first) : PostingMerge(index.nameEnds, words: last)
    var found: [Int32] = []
    while found.count < limit, let rank = merge.next() {
      let isExact = primaryEntries(of: rank).contains { entry in
        tokens[Int(entryBounds[entry])..<Int(entryBounds[entry + 1])].elementsEqual(ids)
      }
      if isExact { found.append(rank) }
    }
    return found
  }

  /// Tier 2 for several query words: all but the last must be whole words of a primary name,
  /// in order, and the last must start the next word.
  ///
  /// Candidates are the items with a primary name starting with the first whole word, or those
  /// with the rarest of the other whole words or of the words the last one starts, if fewer
  /// ("a ma": every item with "a" in a name is far more than those whose name starts with it).
  /// A candidate lacking the bit of a whole word, or of every word the last one starts, fails
  /// before its names are read.
  private func namesStartingWithWords(last: Int) -> [Int32] {
    var exact: [Int32] = []
    for id in exactIds.dropLast() {
      guard let id else { return [] }
      exact.append(Int32(id))
    }
    let exactSets = exact.map { CatalogWordSet([Int($0)..<Int($0) + 1]) }
    let others = exactSets.dropFirst() + [starts[last]]
    let containing = others.min { postingCount(of: $0) < postingCount(of: $1) } ?? starts[last]
    let first = Int(exact[0])..<Int(exact[0]) + 1
    var candidates =
      index.nameStarts.count(in: first) <= postingCount(of: containing)
      ? candidates(in: index.nameStarts, of: exactSets[0], alone: false)
      : candidates(in: index.postings, of: containing, alone: false)
    let exactBits = exact.map { CatalogIndex.wordBit($0) }
    var found = Self.rankList(limit)
    while found.count < limit, let rank = candidates.next() {
      let bits = itemWordBits[Int(rank)]
      guard bits & startBits[last] != 0, exactBits.allSatisfy({ bits & $0 != 0 }) else { continue }
      let matches = primaryEntries(of: rank).contains { entry in
        startsName(entry, with: exact) { starts[last].contains($0) }
      }
      if matches { found.append(rank) }
    }
    return found
  }

  /// Whether entry `entry` has more words than `leading`, starts with them, and its next word
  /// satisfies `next`.
  func startsName(_ entry: Int, with leading: [Int32], then next: (Int32) -> Bool) -> Bool {
    let start = Int(entryBounds[entry])
    guard Int(entryBounds[entry + 1]) - start > leading.count else { return false }
    var position = 0
    while position < leading.count, tokens[start + position] == leading[position] { position += 1 }
    return position == leading.count && next(tokens[start + position])
  }

  /// The ranks in `lists` of `words`, or every rank when those are most of them.
  func candidates(in lists: PostingLists, of words: CatalogWordSet, alone: Bool) -> CandidateRanks {
    CandidateRanks(lists, words: words, rankCount: index.positions.count, limit: limit, alone: alone)
  }

  /// How many ranks the posting lists of `words` hold together, with repeats.
  func postingCount(of words: CatalogWordSet) -> Int {
    words.ranges.reduce(0) { $0 + index.postings.count(in: $1) }
  }

  /// The entries (name forms) of the item's primary names.
  @inline(__always)
  func primaryEntries(of rank: Int32) -> Range<Int> {
    Int(entries[Int(rank)])..<Int(secondaryEntries[Int(rank)])
  }

  /// Where the words of the item's primary names lie in `tokens`.
  @inline(__always)
  func primaryWordRange(of rank: Int32) -> Range<Int> {
    Int(entryBounds[Int(entries[Int(rank)])])..<Int(entryBounds[Int(secondaryEntries[Int(rank)])])
  }

  /// Where all words of the item's names lie in `tokens`; they start with the primary ones.
  @inline(__always)
  func wordRange(of rank: Int32) -> Range<Int> {
    Int(entryBounds[Int(entries[Int(rank)])])..<Int(entryBounds[Int(entries[Int(rank) + 1])])
  }
}
