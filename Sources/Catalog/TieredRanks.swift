// The answer of one search before its items are read: the ranks found, best first, each with the
// tier of the ranking rule that found it. A search's respellings are merged by tier, so the tier
// travels with the rank instead of being implied by where a rank stands in the list.

/// Ranks of one catalog index, best first, each with its tier (`CatalogRanking`, 1–8).
struct TieredRanks {
  /// The ranks, best first.
  private(set) var ranks: [Int32]
  /// `tiers[i]`: the tier that found `ranks[i]`.
  private(set) var tiers: [UInt8]

  /// An empty list with room for `limit` ranks (up to a few hundred): a list grown one rank at
  /// a time was reallocated four or five times per search.
  init(capacity limit: Int) {
    ranks = []
    tiers = []
    ranks.reserveCapacity(min(limit, 256))
    tiers.reserveCapacity(min(limit, 256))
  }

  /// How many ranks were found.
  var count: Int { ranks.count }

  /// Whether nothing was found.
  var isEmpty: Bool { ranks.isEmpty }

  /// Adds `rank`, found by `tier`.
  @inline(__always)
  mutating func append(_ rank: Int32, tier: UInt8) {
    ranks.append(rank)
    tiers.append(tier)
  }

  /// Adds `found`, all found by `tier`.
  mutating func append(contentsOf found: some Collection<Int32>, tier: UInt8) {
    ranks.append(contentsOf: found)
    tiers.append(contentsOf: repeatElement(tier, count: found.count))
  }
}
