// The ranking rule of the offline catalog in one readable definition, item by item. The index
// (`CatalogIndex`, `CatalogSearch`) computes the same answer without visiting every item; the
// tests check it against this definition.

/// Which items a query finds in one category, and in what order.
///
/// 1. Tiers, each query word against the words of an item's names (track, collection, artist),
///    after `TextFolding`:
///    - tier 1: one name is the query: its words are the query's words, in order ("imagine"
///      finds the song "Imagine" before the artist Imagine Dragons);
///    - tier 2: one name starts with the query: all words but the last equal, in order, the
///      name's first words and the last starts the next ("taylor sw", "star wa");
///    - tier 3: every query word starts some word ("swift tay");
///    - tier 4: every query word starts or lies inside (3+ characters) a word, one inside ("aylor");
///    - tier 5: every query word is as above or a typo of a word (`isTypo`: "tylor", "metalica").
/// 2. Typos only as a last resort: tier 5 is answered only when tiers 1–4 find nothing in the
///    category, so a typo never pushes junk under real matches ("eminem" and "Meinem").
/// 3. Within a tier by popularity (highest first), then id (lowest first).
enum CatalogRanking {
  /// An item as the rule sees it.
  struct Candidate {
    var names: [[FoldedWord]]
    var popularity: Int
    var id: Int
  }

  /// The ids of the best `limit` of `candidates` for `query`, by the rule above.
  static func answer(_ query: [FoldedWord], in candidates: [Candidate], limit: Int) -> [Int] {
    guard !query.isEmpty, limit > 0 else { return [] }
    var ranked = candidates.compactMap { candidate in
      tier(of: query, in: candidate.names).map { (tier: $0, popularity: candidate.popularity, id: candidate.id) }
    }
    if ranked.contains(where: { $0.tier < 5 }) { ranked.removeAll { $0.tier == 5 } }
    ranked.sort { ($0.tier, -$0.popularity, $0.id) < ($1.tier, -$1.popularity, $1.id) }
    return ranked.prefix(limit).map(\.id)
  }

  /// The tier (1–5) of an item with `names` for `query`; nil when some query word matches no word.
  static func tier(of query: [FoldedWord], in names: [[FoldedWord]]) -> Int? {
    var loosest = 3
    for part in query {
      var best = Int.max
      for word in names.joined() where best > 3 {
        if word.starts(with: part) {
          best = 3
        } else if best > 4, part.count >= 3, contains(word, part) {
          best = 4
        } else if best > 5, isTypo(part, of: word) {
          best = 5
        }
      }
      guard best != Int.max else { return nil }
      loosest = max(loosest, best)
    }
    guard loosest == 3 else { return loosest }
    if names.contains(where: { $0 == query }) { return 1 }
    let startsAName = names.contains { name in
      name.count >= query.count && name.prefix(query.count - 1).elementsEqual(query.dropLast())
        && name[query.count - 1].starts(with: query[query.count - 1])
    }
    return startsAName ? 2 : 3
  }

  /// Whether query word `part` is a typo of `word`: the same first character (people rarely
  /// mistype it, and without this "eminem" is a swap away from "meinem") and within
  /// `typoAllowance` edits (insert, delete, replace, swap neighbours).
  static func isTypo(_ part: FoldedWord, of word: FoldedWord) -> Bool {
    let allowance = typoAllowance(forLength: part.count)
    return allowance > 0 && part.first == word.first && EditDistance.isWithin(allowance, part, word)
  }

  /// How many edits a query word may be off by: none up to 5 characters (a short word is a
  /// typo of too many real ones: "daily" of "daisy"), one from 6, two from 9.
  static func typoAllowance(forLength length: Int) -> Int {
    switch length {
    case ..<6: 0
    case 6...8: 1
    default: 2
    }
  }

  private static func contains(_ word: FoldedWord, _ part: FoldedWord) -> Bool {
    guard word.count >= part.count else { return false }
    for start in 0...(word.count - part.count) where word[start..<(start + part.count)].elementsEqual(part) {
      return true
    }
    return false
  }
}
