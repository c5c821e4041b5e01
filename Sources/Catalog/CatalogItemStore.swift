// Where a catalog index finds its items: the fields it indexes and ranks by, item by item, and
// the whole `SearchItem` only when an item is part of an answer.
import Pipeline

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
  /// The folded words of the distinct names, numbered as `names(at:)` numbers them; asked once
  /// per catalog, while its indexes are built.
  func foldedNames() -> FoldedNames
  /// The numbers of the names the index matches against: track, collection and artist, in that
  /// order, `CatalogItemNames.none` where the item lacks one. Repeated names (an artist's songs)
  /// share a number, so each distinct name is folded once.
  func names(at position: Int) -> CatalogItemNames
  /// The whole item, as it is returned from a search.
  func item(at position: Int) -> SearchItem
}

/// A store over items given as `SearchItem`s (a catalog file, a test's items, the benchmark's).
struct SearchItemStore: CatalogItemStore {
  let items: [SearchItem]
  /// Item `i`'s names are `nameIds[3i ..< 3i + 3]`, numbers into `distinctNames`.
  private let nameIds: [Int32]
  private let distinctNames: [String]

  init(items: [SearchItem]) {
    self.items = items
    var names = Interner<String>()
    var nameIds: [Int32] = []
    nameIds.reserveCapacity(3 * items.count)
    for item in items {
      for name in [item.trackName, item.collectionName, item.artistName] {
        nameIds.append(name.map { names.id(of: $0) } ?? CatalogItemNames.none)
      }
    }
    self.nameIds = nameIds
    distinctNames = names.values
  }

  var count: Int { items.count }

  func foldedNames() -> FoldedNames {
    FoldedNames(folding: distinctNames)
  }

  func names(at position: Int) -> CatalogItemNames {
    let first = 3 * position
    return CatalogItemNames(track: nameIds[first], collection: nameIds[first + 1], artist: nameIds[first + 2])
  }

  func category(at position: Int) -> Category? {
    Category(kind: items[position].kind, wrapperType: items[position].wrapperType)
  }

  func rankKey(at position: Int) -> (popularity: Int, id: Int) {
    (items[position].popularity ?? 0, items[position].id)
  }

  func item(at position: Int) -> SearchItem {
    items[position]
  }
}
