// What a shared store keys an answer by, and what it gives back: the same key as the memory cache
// (source, term key, scope, limit, country), and the items with the instant they were fetched.
import Foundation

/// The key of one stored answer. Every field is compared as the bytes it is (a NUL included).
public struct StoreKey: Sendable, Hashable {
  /// The source's name: "itunes" or the server's URL.
  public var source: String
  /// The term's key: folded ("Taylor" and "taylor" share an answer), in Unicode's composed form.
  public var term: String
  /// A category name ("music"), or "all:" and the categories of a single request.
  public var scope: String
  /// Items per category asked for.
  public var limit: Int
  /// The store country.
  public var country: String

  /// A key from its fields, as given.
  public init(source: String, term: String, scope: String, limit: Int, country: String) {
    self.source = source
    self.term = term
    self.scope = scope
    self.limit = limit
    self.country = country
  }
}

/// An answer as a store keeps it: its items encoded, and when they were fetched.
public struct StoredAnswer: Sendable {
  /// The items in the stores' common binary layout (``init(items:fetchedAt:)`` makes it), or as
  /// JSON (`{"music": [items…]}`) in an SQLite file migrated from its first version.
  public var encoded: [UInt8]
  /// When the source answered, in milliseconds since 1970 UTC.
  public var fetchedAt: Int64

  /// An answer as read back from a store.
  public init(encoded: [UInt8], fetchedAt: Int64) {
    self.encoded = encoded
    self.fetchedAt = fetchedAt
  }

  /// An answer to store: `items` encoded in the common layout.
  public init(items: [Category: [SearchItem]], fetchedAt: Int64) {
    self.init(encoded: StoredItemsCoding.encode(items), fetchedAt: fetchedAt)
  }

  /// The items; nil when the bytes do not decode (then the answer is treated as missing).
  public var items: [Category: [SearchItem]]? {
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
