// What the disk tier keys an answer by, and what it gives back: the same key as the memory cache
// (source, term key, scope, limit, country), and the items with the instant they were fetched.
import Foundation

/// The key of one stored answer.
package struct StoreKey: Sendable, Hashable {
  /// The source's name: "itunes" or the server's URL.
  package var source: String
  /// The term's key (folded, so "Taylor" and "taylor" share an answer).
  package var term: String
  /// A category name ("music"), or "all:" and the categories of a single request.
  package var scope: String
  package var limit: Int
  package var country: String

  /// A key (for the benchmark, which builds keys without a repository).
  package init(source: String, term: String, scope: String, limit: Int, country: String) {
    self.source = source
    self.term = term
    self.scope = scope
    self.limit = limit
    self.country = country
  }

  /// The values bound to `source = ? AND term = ? AND scope = ? AND lim = ? AND country = ?`.
  var values: [SQLiteValue] {
    [.text(source), .text(term), .text(scope), .integer(Int64(limit)), .text(country)]
  }
}

/// An answer read from disk: its items still encoded, and when they were fetched.
package struct StoredAnswer: Sendable {
  /// The items in ``StoredItemsCoding``'s layout, or as JSON (`{"music": [items…]}`) in a file
  /// migrated from version 1.
  var encoded: [UInt8]
  /// When the source answered, in milliseconds since 1970 UTC.
  var fetchedAt: Int64

  /// The items; nil when the bytes do not decode (then the answer is treated as missing).
  package var items: [Category: [SearchItem]]? {
    guard encoded.first == UInt8(ascii: "{") else { return StoredItemsCoding.decode(encoded) }
    guard let byName = try? JSONDecoder().decode([String: [SearchItem]].self, from: Data(encoded)) else { return nil }
    var items: [Category: [SearchItem]] = [:]
    for (name, list) in byName {
      guard let category = Category(rawValue: name) else { return nil }
      items[category] = list
    }
    return items
  }
}
