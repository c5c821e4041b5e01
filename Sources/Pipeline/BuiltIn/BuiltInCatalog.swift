// The built-in catalog's records: real films, music, podcasts and TV episodes compiled into the
// binary by the CatalogData target as static arrays. The pipeline core reads an item's fields and
// writes its JSON from its record; the Catalog module adds the search indexes built ahead.
import CatalogData

/// The embedded catalog (docs/catalog.md: sources, layout, popularity): its records and names.
///
/// `Sources/CatalogData/build_catalog.py` writes it: one record per item, every distinct name
/// once with the word ids of its folded forms, the sorted dictionary of those words, and per
/// category the arrays of its `CatalogIndex`, laid out as the index holds them. An answer's item
/// is its position, its fields read from the record when asked for.
package struct BuiltInCatalog: @unchecked Sendable {
  /// What a record says an item is.
  package enum Kind: UInt8 {
    case song = 0x73
    case album = 0x61
    case movie = 0x6D
    case podcast = 0x70
    case tvEpisode = 0x74
  }

  /// One item: its names' numbers (`CatalogItemNames.none` for none), numeric fields and kind.
  package typealias Record = stream_search_catalog_record

  /// The id of item 0; item `i` has id `firstId + i`.
  package static let firstId = 1_500_000_000
  /// The catalog compiled into this binary.
  package static let shared = BuiltInCatalog(stream_search_catalog_data().pointee)

  package let data: stream_search_catalog
  package let records: UnsafeBufferPointer<Record>
  private let nameOffsets: UnsafeBufferPointer<Int32>

  package init(_ data: stream_search_catalog) {
    self.data = data
    records = Self.view(data.records, count: Int(data.item_count))
    nameOffsets = Self.view(data.name_offsets, count: Int(data.name_count) + 1)
  }

  /// A view of `count` values of static memory at `start`, which may be nil only for a count of 0.
  private static func view<Element>(_ start: UnsafePointer<Element>?, count: Int) -> UnsafeBufferPointer<Element> {
    UnsafeBufferPointer(start: count > 0 ? start : nil, count: count)
  }

  package var count: Int { records.count }

  /// How many distinct names there are.
  package var nameCount: Int { Int(data.name_count) }

  /// The distinct name numbered `id`.
  package func name(_ id: Int) -> String {
    String(decoding: nameBytes(id), as: UTF8.self)
  }

  /// Per distinct name, whether JSON needs an escape in it (a quote, a backslash, a control
  /// character): checked once for all names, when the first item is written, rather than for
  /// every name of every item written.
  package static let namesNeedingEscapes: [Bool] = (0..<shared.nameCount).map {
    JSONBytes.needsEscaping(shared.nameBytes($0))
  }

  /// The UTF-8 bytes of the distinct name numbered `id`.
  package func nameBytes(_ id: Int) -> UnsafeBufferPointer<UInt8> {
    let start = Int(nameOffsets[id])
    let bytes = UnsafeRawPointer(data.name_bytes.unsafelyUnwrapped + start).assumingMemoryBound(to: UInt8.self)
    return UnsafeBufferPointer(start: bytes, count: Int(nameOffsets[id + 1]) - start)
  }

  package func category(at position: Int) -> Category? {
    switch Kind(rawValue: UInt8(bitPattern: records[position].kind)) {
    case .song, .album: .music
    case .movie: .movies
    case .podcast: .podcasts
    case .tvEpisode: .tvShow
    case nil: nil
    }
  }

  package func rankKey(at position: Int) -> (popularity: Int, id: Int) {
    (Int(records[position].popularity), Self.firstId + position)
  }

  package func names(at position: Int) -> CatalogItemNames {
    let record = records[position]
    return CatalogItemNames(track: record.track, collection: record.collection, artist: record.artist)
  }
}

/// The numbers of an item's three names in its store (see `CatalogItemStore.names(at:)`).
package struct CatalogItemNames {
  /// No such name.
  package static let none: Int32 = -1

  package var track: Int32
  package var collection: Int32
  package var artist: Int32

  /// The names numbered `track`, `collection` and `artist`.
  package init(track: Int32, collection: Int32, artist: Int32) {
    self.track = track
    self.collection = collection
    self.artist = artist
  }
}
