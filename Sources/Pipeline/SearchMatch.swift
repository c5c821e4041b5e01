// How an item of an answer matched its query: a source that knows (the catalog) says so, so that
// an event's reader can tell a hit from a guess. Items of a source that does not say carry none.

/// How one item matched the query it answers: shared by the items that matched alike, so that an
/// item carries one reference whatever it says.
public final class SearchMatch: Sendable, Hashable, CustomStringConvertible {
  /// The kinds of match, best first.
  public enum Quality: String, Sendable, Hashable, CaseIterable {
    /// A name of the item is the query, word for word.
    case exact
    /// Every query word starts a word of the item's names (a name may start with the query).
    case prefix
    /// A query word matches only within its typo allowance (`typos` edits in all).
    case typo
    /// Only some query words match (`matchedWords`): nothing in the category matched them all.
    case partial
  }

  /// The kind of match.
  public let quality: Quality
  /// The edits (insertions, deletions, substitutions, swaps) the typos of a `typo` match take in
  /// all; 0 for the other kinds.
  public let typos: Int
  /// The query words (folded) a `partial` match matched, in the query's order; empty for the
  /// other kinds.
  public let matchedWords: [String]

  /// A match of `quality`; `typos` counts only for `.typo`, `matchedWords` only for `.partial`.
  public init(_ quality: Quality, typos: Int = 0, matchedWords: [String] = []) {
    self.quality = quality
    self.typos = quality == .typo ? max(typos, 1) : 0
    self.matchedWords = quality == .partial ? matchedWords : []
  }

  /// An exact match, shared.
  public static let exact = SearchMatch(.exact)
  /// A prefix match, shared.
  public static let prefix = SearchMatch(.prefix)

  /// A typo match of `edits` edits; those of one and two edits are shared.
  public static func typo(_ edits: Int) -> SearchMatch {
    switch edits {
    case ...1: oneTypo
    case 2: twoTypos
    default: SearchMatch(.typo, typos: edits)
    }
  }

  private static let oneTypo = SearchMatch(.typo, typos: 1)
  private static let twoTypos = SearchMatch(.typo, typos: 2)

  /// "exact", "prefix", "typo (2)", "partial (helene, fischer)".
  public var description: String {
    switch quality {
    case .exact, .prefix: quality.rawValue
    case .typo: "typo (\(typos))"
    case .partial: "partial (\(matchedWords.joined(separator: ", ")))"
    }
  }

  /// Whether both say the same.
  public static func == (left: SearchMatch, right: SearchMatch) -> Bool {
    left.quality == right.quality && left.typos == right.typos && left.matchedWords == right.matchedWords
  }

  /// Hashes what it says.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(quality)
    hasher.combine(typos)
    hasher.combine(matchedWords)
  }
}
