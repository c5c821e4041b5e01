// How a `SearchItem` holds its fields: in one shared box, copied only when a shared item is
// changed, or not at all for an item of the built-in catalog, whose fields are read from its
// record when asked for. An answer's items are copied from the source through the cache to the
// events; with twenty-two fields inline every copy retained and released a dozen strings, which
// cost more than the search, and the built-in catalog rendered every field of every item an
// answer held, though the JSON Lines output writes them straight from the records.

/// The fields of a `SearchItem`, as its initialiser takes them.
struct SearchItemFields: Hashable, Sendable {
  var id: Int
  var wrapperType: String?
  var kind: String?
  var trackId: Int?
  var collectionId: Int?
  var artistId: Int?
  var trackName: String?
  var collectionName: String?
  var artistName: String?
  var trackViewUrl: String?
  var collectionViewUrl: String?
  var previewUrl: String?
  var artworkUrl100: String?
  var artworkUrl: String?
  var releaseDate: String?
  var primaryGenreName: String?
  var trackTimeMillis: Int?
  var price: Double?
  var currency: String?
  var country: String?
  var feedUrl: String?
  var popularity: Int?
}

/// The box the fields of a `SearchItem` share between copies.
///
/// Unchecked: `fields` is only changed through `SearchItem.change(_:)`, on a box no other item
/// refers to.
final class SearchItemStorage: @unchecked Sendable {
  var fields: SearchItemFields

  init(_ fields: SearchItemFields) {
    self.fields = fields
  }
}

extension SearchItem {
  /// An item holding `fields`.
  init(fields: SearchItemFields) {
    storage = SearchItemStorage(fields)
    builtInPosition = -1
    match = nil
  }

  /// Item `position` of the built-in catalog, its fields read from its record when asked for.
  init(builtIn position: Int) {
    storage = nil
    builtInPosition = position
    match = nil
  }

  /// The record of a built-in item (only read when `storage` is nil). Its fields that the
  /// catalog never has (artist id, artwork, preview, country, feed) read as nil through
  /// `storage?`.
  var builtIn: BuiltInCatalog.Item { BuiltInCatalog.Item(position: builtInPosition) }

  /// The item's position in the built-in catalog, nil for an item with fields of its own.
  var builtInCatalogPosition: Int? { storage == nil ? builtInPosition : nil }

  /// Every field, copied out.
  var fields: SearchItemFields { storage?.fields ?? builtIn.fields }

  /// Changes a field in a box of this item's own: the fields are copied first when the box is
  /// shared with another item, or read from the catalog for a built-in item.
  mutating func change(_ body: (inout SearchItemFields) -> Void) {
    if !isKnownUniquelyReferenced(&storage) { storage = SearchItemStorage(fields) }
    if let storage { body(&storage.fields) }
  }
}

extension SearchItem: Hashable {
  /// Whether both items have the same fields, however each holds them.
  public static func == (left: SearchItem, right: SearchItem) -> Bool {
    switch (left.storage, right.storage) {
    case (nil, nil): left.builtInPosition == right.builtInPosition
    case (let left?, let right?) where left === right: true
    default: left.fields == right.fields
    }
  }

  /// Hashes the fields (the same for equal items however each holds them).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(fields)
  }
}

extension SearchItem: Encodable {
  private enum FieldKeys: String, CodingKey {
    case id, wrapperType, kind, trackId, collectionId, artistId, trackName, collectionName, artistName
    case trackViewUrl, collectionViewUrl, previewUrl, artworkUrl100, artworkUrl, releaseDate
    case primaryGenreName, trackTimeMillis, price, currency, country, feedUrl, popularity
  }

  /// Encodes every present field under its own name (`id`, `wrapperType`, … `popularity`),
  /// absent ones left out: the shape `init(from:)` reads back as the same item.
  public func encode(to encoder: any Encoder) throws {
    let fields = fields
    var container = encoder.container(keyedBy: FieldKeys.self)
    try container.encode(fields.id, forKey: .id)
    try container.encodeIfPresent(fields.wrapperType, forKey: .wrapperType)
    try container.encodeIfPresent(fields.kind, forKey: .kind)
    try container.encodeIfPresent(fields.trackId, forKey: .trackId)
    try container.encodeIfPresent(fields.collectionId, forKey: .collectionId)
    try container.encodeIfPresent(fields.artistId, forKey: .artistId)
    try container.encodeIfPresent(fields.trackName, forKey: .trackName)
    try container.encodeIfPresent(fields.collectionName, forKey: .collectionName)
    try container.encodeIfPresent(fields.artistName, forKey: .artistName)
    try container.encodeIfPresent(fields.trackViewUrl, forKey: .trackViewUrl)
    try container.encodeIfPresent(fields.collectionViewUrl, forKey: .collectionViewUrl)
    try container.encodeIfPresent(fields.previewUrl, forKey: .previewUrl)
    try container.encodeIfPresent(fields.artworkUrl100, forKey: .artworkUrl100)
    try container.encodeIfPresent(fields.artworkUrl, forKey: .artworkUrl)
    try container.encodeIfPresent(fields.releaseDate, forKey: .releaseDate)
    try container.encodeIfPresent(fields.primaryGenreName, forKey: .primaryGenreName)
    try container.encodeIfPresent(fields.trackTimeMillis, forKey: .trackTimeMillis)
    try container.encodeIfPresent(fields.price, forKey: .price)
    try container.encodeIfPresent(fields.currency, forKey: .currency)
    try container.encodeIfPresent(fields.country, forKey: .country)
    try container.encodeIfPresent(fields.feedUrl, forKey: .feedUrl)
    try container.encodeIfPresent(fields.popularity, forKey: .popularity)
  }
}

extension SearchItem: CustomReflectable {
  /// The fields, as the item's children: `print` and test failures show them, not the box.
  public var customMirror: Mirror {
    Mirror(self, children: Mirror(reflecting: fields).children, displayStyle: .struct)
  }
}
