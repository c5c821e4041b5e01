// A search together with its respellings (`CatalogQuery.respellings`): the query as typed is
// searched as always, each respelling for the names it spells, and the answers are merged tier
// by tier, so that "sound garden" and "soundgarden" put the same items first.

extension CatalogIndex {
  /// The ranks of the best `limit` items for `query` and its respellings, each with its tier.
  ///
  /// A respelling answers with names only (tiers 1 and 2): it is a guess at how a name is
  /// written, so it counts where a name is written that way, not where its parts are scattered
  /// over a name ("metalica" is not "metal" and "ica…" anywhere). Within a tier, the query as
  /// typed comes before its respellings, then rank. Typos are searched, for the query as typed,
  /// only when neither it nor a respelling matched anything without one.
  func rankedSearch(_ query: CatalogQuery, limit: Int, categories: UInt32) -> TieredRanks {
    let respellings = query.respellings(
      isWord: isWord, startsWord: startsWord,
      known: { word, isLast in recentSplits.withLock { $0.answer(for: SplitWord(word: word, isLast: isLast)) } },
      keep: { word, isLast, parts in
        recentSplits.withLock { $0.keep(parts, for: SplitWord(word: word, isLast: isLast)) }
      })
    let typed = CatalogSearch(index: self, query: query, limit: limit, categories: categories)
    guard !respellings.isEmpty else { return typed.run() }
    let answers = respellings.map {
      CatalogSearch(index: self, query: $0, limit: limit, categories: categories).runNames()
    }
    let own = typed.run(typos: answers.allSatisfy(\.isEmpty))
    return Self.merge(own, answers, limit: limit)
  }

  /// The best `limit` of `own` (the query as typed) and `respelt` (its respellings'), by tier,
  /// then the typed query's before the respellings', then rank; each rank once, where it is
  /// best.
  static func merge(_ own: TieredRanks, _ respelt: [TieredRanks], limit: Int) -> TieredRanks {
    var all: [(tier: UInt8, respelt: Bool, rank: Int32)] = []
    for (index, rank) in own.ranks.enumerated() { all.append((own.tiers[index], false, rank)) }
    for answer in respelt {
      for (index, rank) in answer.ranks.enumerated() { all.append((answer.tiers[index], true, rank)) }
    }
    all.sort { ($0.tier, $0.respelt ? 1 : 0, $0.rank) < ($1.tier, $1.respelt ? 1 : 0, $1.rank) }
    var merged = TieredRanks(capacity: limit)
    var seen: Set<Int32> = []
    for found in all where merged.count < limit && seen.insert(found.rank).inserted {
      merged.append(found.rank, tier: found.tier)
    }
    return merged
  }
}

/// A word to split, and whether it is a query's last (whose last part may be unfinished).
struct SplitWord: Hashable, Sendable {
  var word: FoldedWord
  var isLast: Bool
}
