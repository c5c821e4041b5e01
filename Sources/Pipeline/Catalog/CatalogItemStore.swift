// Where a catalog index finds its items: the fields it indexes and ranks by, item by item, and
// the whole `SearchItem` only when an item is part of an answer.

/// The items of a catalog, by position (`0 ..< count`), in no particular order.
///
/// The index reads names, popularity and id once while it is built and afterwards asks only for
/// the few whole items of an answer, so a store may keep its items in whatever form is smallest
/// (the generated catalog keeps compact records and renders an item when asked for it).
protocol CatalogItemStore: Sendable {
  /// How many items there are.
  var count: Int { get }
  /// The category of the item at `position`; nil for an item of no known category.
  func category(at position: Int) -> Category?
  /// The item's popularity (0 when it has none) and id, which rank it within a tier.
  func rankKey(at position: Int) -> (popularity: Int, id: Int)
  /// The names the index matches against: track, collection and artist, in that order.
  func names(at position: Int) -> (track: String?, collection: String?, artist: String?)
  /// The whole item, as it is returned from a search.
  func item(at position: Int) -> SearchItem
}

/// A store over items given as `SearchItem`s (a catalog file, a test's items, the benchmark's).
struct SearchItemStore: CatalogItemStore {
  let items: [SearchItem]

  var count: Int { items.count }

  func category(at position: Int) -> Category? {
    Category(kind: items[position].kind, wrapperType: items[position].wrapperType)
  }

  func rankKey(at position: Int) -> (popularity: Int, id: Int) {
    (items[position].popularity ?? 0, items[position].id)
  }

  func names(at position: Int) -> (track: String?, collection: String?, artist: String?) {
    let item = items[position]
    return (item.trackName, item.collectionName, item.artistName)
  }

  func item(at position: Int) -> SearchItem {
    items[position]
  }
}
