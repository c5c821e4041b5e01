// The items of the built-in catalog as `SearchItem`s: an answer's item is the record's position
// and nothing else, and each field is read from the record when it is asked for. The JSON Lines
// output asks for none of them: it writes an item's object straight from its record
// (`JSONItemWriter`). The two made-up strings (the URL and the release date) are written byte by
// byte rather than by string interpolation, which cost more than the search.

extension BuiltInCatalog {
  package func item(at position: Int) -> SearchItem {
    SearchItem(builtIn: position)
  }

  /// One item of the catalog compiled into this binary, its fields read from its record.
  struct Item {
    let position: Int

    var catalog: BuiltInCatalog { BuiltInCatalog.shared }
    var record: Record { catalog.records[position] }
    var id: Int { BuiltInCatalog.firstId + position }
    /// The converter writes only these kinds; `category(at:)` leaves any other out of every index.
    var recordKind: Kind { Kind(rawValue: UInt8(bitPattern: record.kind)) ?? .song }

    var wrapperType: String { recordKind == .album ? "collection" : "track" }
    var kind: String { recordKind.name }
    var trackId: Int? { recordKind == .album ? nil : id }
    var collectionId: Int? { recordKind == .album || recordKind == .podcast ? id : nil }
    var trackName: String? { text(record.track) }
    var collectionName: String? { text(record.collection) }
    var artistName: String? { text(record.artist) }
    var primaryGenreName: String? { text(record.genre) }
    var trackTimeMillis: Int? { record.millis > 0 ? Int(record.millis) : nil }
    var price: Double? { record.cents > 0 ? Double(record.cents) / 100 : nil }
    var currency: String? { record.cents > 0 ? "USD" : nil }
    var popularity: Int { Int(record.popularity) }

    /// "https://catalog.invalid/<path><id>".
    var trackViewUrl: String {
      String(unsafeUninitializedCapacity: BuiltInCatalog.urlCapacity) { buffer in
        BuiltInCatalog.writeURL(recordKind, id, to: buffer)
      }
    }

    /// "2014-10-27" when the day is known, "2014" when only the year is, else nil.
    var releaseDate: String? {
      let record = record
      guard record.year > 0 else { return nil }
      return String(unsafeUninitializedCapacity: BuiltInCatalog.dateCapacity) { buffer in
        BuiltInCatalog.writeReleaseDate(of: record, to: buffer)
      }
    }

    /// The year of release, when it is known.
    var releaseYear: Int? { record.year > 0 ? Int(record.year) : nil }

    private func text(_ name: Int32) -> String? {
      name == CatalogItemNames.none ? nil : catalog.name(Int(name))
    }

    /// Every field, as a `SearchItem` made with its initialiser would hold them.
    var fields: SearchItemFields {
      SearchItemFields(
        id: id, wrapperType: wrapperType, kind: kind, trackId: trackId, collectionId: collectionId,
        trackName: trackName, collectionName: collectionName, artistName: artistName, trackViewUrl: trackViewUrl,
        releaseDate: releaseDate, primaryGenreName: primaryGenreName, trackTimeMillis: trackTimeMillis, price: price,
        currency: currency, popularity: popularity)
    }
  }

  /// The most bytes `writeURL` and `writeReleaseDate` write.
  static let urlCapacity = 64
  static let dateCapacity = 10

  /// Writes "https://catalog.invalid/<path><id>" at the start of `buffer`; returns its length.
  static func writeURL(_ kind: Kind, _ id: Int, to buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
    var writer = ASCIIWriter(buffer)
    writer.append("https://catalog.invalid/")
    writer.append(kind.path)
    writer.append(id, digits: 0)
    return writer.count
  }

  /// Writes the release date of `record` ("2014-10-27", or "2014" when only the year is known:
  /// `SearchItem.releaseDate`'s form) at the start of `buffer`; returns its length, 0 for a record
  /// with no year.
  static func writeReleaseDate(of record: Record, to buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
    guard record.year > 0 else { return 0 }
    var writer = ASCIIWriter(buffer)
    writer.append(Int(record.year), digits: 4)
    if record.month > 0 {
      writer.append("-")
      writer.append(Int(record.month), digits: 2)
      if record.day > 0 {
        writer.append("-")
        writer.append(Int(record.day), digits: 2)
      }
    }
    return writer.count
  }
}

extension BuiltInCatalog.Kind {
  /// The item's `kind` field.
  var name: String { staticName.description }

  /// The same, as the JSON writer copies it.
  var staticName: StaticString {
    switch self {
    case .song: "song"
    case .album: "album"
    case .movie: "feature-movie"
    case .podcast: "podcast"
    case .tvEpisode: "tv-episode"
    }
  }

  /// Where its page is under https://catalog.invalid/.
  var path: StaticString {
    switch self {
    case .song: "song/"
    case .album: "album/"
    case .movie: "movie/"
    case .podcast: "podcast/"
    case .tvEpisode: "tv-episode/"
    }
  }
}

/// Appends ASCII text and decimal numbers to a buffer large enough for them.
struct ASCIIWriter {
  let buffer: UnsafeMutableBufferPointer<UInt8>
  private(set) var count = 0

  init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes in
      for byte in bytes {
        buffer[count] = byte
        count += 1
      }
    }
  }

  /// `value` (not negative) in decimal, padded with zeros to `digits` digits.
  mutating func append(_ value: Int, digits: Int) {
    var length = 1
    var rest = value / 10
    while rest > 0 {
      length += 1
      rest /= 10
    }
    length = max(length, digits)
    var remaining = value
    var index = count + length
    while index > count {
      index -= 1
      buffer[index] = UInt8(truncatingIfNeeded: 0x30 + remaining % 10)
      remaining /= 10
    }
    count += length
  }
}
