// The answer path's vocabulary: what an answer is kept under (the term's key, the scope, the
// settings) and what each tier hands the next (a loaded answer, a repository's answer).
import Streams

/// What a cache entry answers: one category, or all of them in one request. Not nested in the
/// generic repository: a type nested there is generic too, and the compiler copied and destroyed
/// it through its metadata's value witnesses instead of inline, several times per search.
enum SearchScope: Hashable, Sendable {
  case category(Category)
  case all([Category])
}

/// What the cache keeps an answer under (a repository's key; not nested in it, as `SearchScope`).
struct SearchKey: Hashable, Sendable {
  let termKey: String
  let scope: SearchScope
  let limit: Int
  let country: String
  let source: String
  /// Hashed once: a key is looked up, stored and removed in several tables per search (the
  /// entries, the loads in flight, the recency list), and hashing its strings each time was a
  /// tenth of a replay's instructions.
  private let hash: Int

  /// A key whose `limit`, `country` and `source` are hashed in `settingsHash` (from
  /// ``settingsHash(limit:country:source:)``): they are the same for every key of a repository,
  /// and hashing their strings for each of a search's categories cost more than the lookup.
  init(termKey: String, scope: SearchScope, limit: Int, country: String, source: String, settingsHash: Int) {
    self.termKey = termKey
    self.scope = scope
    self.limit = limit
    self.country = country
    self.source = source
    var hasher = Hasher()
    hasher.combine(termKey)
    switch scope {
    case .category(let category):
      hasher.combine(category.ordinal)
    case .all(let categories):
      hasher.combine(-1)
      for category in categories { hasher.combine(category.ordinal) }
    }
    hasher.combine(settingsHash)
    hash = hasher.finalize()
  }

  /// The part of every key's hash that a repository's settings give.
  static func settingsHash(limit: Int, country: String, source: String) -> Int {
    var hasher = Hasher()
    hasher.combine(limit)
    hasher.combine(country)
    hasher.combine(source)
    return hasher.finalize()
  }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  static func == (lhs: SearchKey, rhs: SearchKey) -> Bool {
    lhs.hash == rhs.hash && lhs.termKey == rhs.termKey && lhs.scope == rhs.scope && lhs.limit == rhs.limit
      && lhs.country == rhs.country && lhs.source == rhs.source
  }
}

/// What a repository's memory cache holds: the items, and whether the disk rather than the source
/// gave them. Not nested in the generic repository, as `SearchScope`.
struct LoadedAnswer: Sendable {
  var items: [Category: [SearchItem]]
  var fromDisk = false
}

/// A repository's answer and how it was obtained. Not nested in the generic repository, as
/// `SearchScope`.
struct RepositoryAnswer: Sendable {
  var items: [Category: [SearchItem]]
  var origin: CacheOrigin
  /// An expired cached answer, served because the reload failed.
  var isStale = false
  /// Loaded from the disk tier rather than the source.
  var fromDisk = false
}

extension SearchScope {
  /// The category name for logs: "music", or "all" for a single request.
  var name: String {
    switch self {
    case .category(let category): category.rawValue
    case .all: "all"
    }
  }

  /// The first category the scope answers, if any (without building ``categories``: asked per
  /// category of every search).
  var firstCategory: Category? {
    switch self {
    case .category(let category): category
    case .all(let categories): categories.first
    }
  }

  /// The categories the scope answers, in order.
  var categories: [Category] {
    switch self {
    case .category(let category): [category]
    case .all(let categories): categories
    }
  }
}
