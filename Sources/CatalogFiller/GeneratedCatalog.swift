// The generated filler catalog as the generator writes it: one small record per item and one
// table of distinct names, rendered into `SearchItem`s for tests and the benchmark.
import Catalog
import Pipeline

/// The generated catalog's items as records plus a shared name table (artists, albums and
/// genres repeat across many items and are stored once).
struct GeneratedCatalog {
  /// How many items `generatedItems(count:)` makes by default.
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
