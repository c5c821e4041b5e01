// The generated catalog held compactly: one small record per item and one table of distinct
// names, so the built-in catalog costs about a megabyte instead of the twelve its `SearchItem`s
// would; an item is rendered only when a search returns it.

/// The generated catalog's items as records plus a shared name table (artists, albums and
/// genres repeat across many items and are stored once).
struct GeneratedCatalog: CatalogItemStore {
  /// How many items the built-in catalog has (also `generatedItems(count:)`'s default).
  static let defaultCount = 12_000

  /// Item `i` of the catalog.
  let records: [GeneratedRecord]
  /// Every distinct name (titles, artists, albums, genres), referred to by position.
  let nameTable: [String]

  /// The first `count` items of the generated catalog (none when `count` ≤ 0).
  init(count: Int) {
    var builder = Builder(capacity: count)
    CatalogGenerator.generate(count: count, into: &builder)
    records = builder.records
    nameTable = builder.names
  }

  var count: Int { records.count }

  func category(at position: Int) -> Category? {
    records[position].category
  }

  func rankKey(at position: Int) -> (popularity: Int, id: Int) {
    (Int(records[position].popularity), GeneratedRecord.firstTrackId + position)
  }

  var nameCount: Int { nameTable.count }

  func name(_ id: Int) -> String {
    nameTable[id]
  }

  func names(at position: Int) -> CatalogItemNames {
    let record = records[position]
    let collection = record.kind == .movie ? CatalogItemNames.none : Int32(record.collectionName)
    return CatalogItemNames(track: Int32(record.trackName), collection: collection, artist: Int32(record.artistName))
  }

  func item(at position: Int) -> SearchItem {
    records[position].item(index: position, names: nameTable)
  }

  /// Every item, rendered: what `CatalogSource.generatedItems(count:)` returns.
  var items: [SearchItem] {
    records.indices.map(item(at:))
  }

  /// Collects the generator's records and gives each distinct name one id.
  struct Builder {
    private(set) var records: [GeneratedRecord] = []
    private var interner = Interner<String>()

    init(capacity: Int) {
      // Capped: an absurd count should fail by running long, not by one huge allocation up front.
      records.reserveCapacity(min(max(0, capacity), 1 << 20))
    }

    var count: Int { records.count }

    /// Every distinct name so far, at the position of its id.
    var names: [String] { interner.values }

    /// The id of `name`, adding it to the table the first time it is seen.
    mutating func id(of name: String) -> UInt32 {
      UInt32(interner.id(of: name))
    }

    mutating func append(_ record: GeneratedRecord) {
      records.append(record)
    }
  }
}
