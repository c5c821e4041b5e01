// Writes search items as JSON straight into bytes reserved for them. A results event carries up
// to 75 items a keystroke; appending their fifteen fields to an array one call at a time, each
// call checking the array's capacity and uniqueness, cost more than finding the items. An item of
// the built-in catalog is written straight from its record, its names copied from the catalog's
// bytes: no string is made for it.

/// Measures items as JSON objects, the shape docs/events.md gives; `JSONCursor` writes them.
enum JSONItemWriter {
  /// The most bytes `items` take as JSON objects separated by commas.
  static func maximumLength(of items: [SearchItem]) -> Int {
    var total = items.count
    for item in items { total += maximumLength(of: item) }
    return total
  }

  /// The most bytes `item` can take: every key, every string six times over (each byte escaped
  /// as `\u00XX`), and the longest integers and price.
  private static func maximumLength(of item: SearchItem) -> Int {
    let match = item.match.map(maximumLength(of:)) ?? 0
    if let position = item.builtInCatalogPosition { return match + maximumLength(ofBuiltIn: position) }
    func length(_ text: String?) -> Int { 2 + 6 * (text?.utf8.count ?? 0) }
    // Added up field by field: an array of the twelve strings cost more than writing them.
    var total = keysLength + 3 * 24 + 32
    total += length(item.kind) + length(item.title) + length(item.artistName) + length(item.collectionName)
    total += length(item.trackViewUrl ?? item.collectionViewUrl) + length(item.previewUrl)
    total += length(item.artworkUrl ?? item.artworkUrl100) + length(item.releaseDate) + length(item.primaryGenreName)
    total += length(item.currency) + length(item.country) + length(item.feedUrl)
    return total + match
  }

  /// `,"match":"partial","typos":…,"matched_words":[…]` at most: 64 besides the words.
  private static func maximumLength(of match: SearchMatch) -> Int {
    match.matchedWords.reduce(64) { $0 + 1 + JSONCursor.maximumLength(ofString: $1) }
  }

  /// The same for item `position` of the built-in catalog: its four names (six times over only
  /// when they need escapes) and the rest (id, kind, URL, date, numbers) far less than
  /// `keysLength` more.
  private static func maximumLength(ofBuiltIn position: Int) -> Int {
    if let length = BuiltInItemJSON.shared.length(of: position) { return length }
    let catalog = BuiltInCatalog.shared
    let record = catalog.records[position]
    let escapes = BuiltInCatalog.namesNeedingEscapes
    func length(_ name: Int32) -> Int {
      guard name != CatalogItemNames.none else { return 0 }
      let count = catalog.nameBytes(Int(name)).count
      return 2 + (escapes[Int(name)] ? 6 * count : count)
    }
    let none = CatalogItemNames.none
    let title = record.track != none ? record.track : record.collection != none ? record.collection : record.artist
    let names = length(title) + length(record.artist) + length(record.collection) + length(record.genre)
    return keysLength + BuiltInCatalog.urlCapacity + BuiltInCatalog.dateCapacity + 3 * 24 + names
  }

  /// All keys of an item together, with their punctuation, and the digits of its year.
  private static let keysLength = 224
}

extension JSONCursor {
  /// `items` as JSON objects separated by commas.
  mutating func items(_ items: [SearchItem]) {
    for (index, item) in items.enumerated() {
      if index > 0 { byte(UInt8(ascii: ",")) }
      self.item(item)
    }
  }

  mutating func item(_ item: borrowing SearchItem) {
    if let position = item.builtInCatalogPosition {
      builtInItem(position)
      if let match = item.match {
        // The match is the answer's, not the item's: written after the item's kept JSON, in
        // place of its closing brace.
        self.position -= 1
        self.match(match)
        byte(UInt8(ascii: "}"))
      }
      return
    }
    raw("{\"id\":")
    integer(item.id)
    field(",\"kind\":", item.kind)
    field(",\"title\":", item.title)
    field(",\"artist\":", item.artistName)
    field(",\"collection\":", item.collectionName)
    field(",\"url\":", item.trackViewUrl ?? item.collectionViewUrl)
    field(",\"preview_url\":", item.previewUrl)
    field(",\"artwork_url\":", item.artworkUrl ?? item.artworkUrl100)
    if let date = item.releaseDate {
      field(",\"release_date\":", date)
      if let year = ReleaseDate.year(of: date) {
        raw(",\"release_year\":")
        integer(year)
      }
    }
    field(",\"genre\":", item.primaryGenreName)
    if let duration = item.trackTimeMillis {
      raw(",\"duration_ms\":")
      integer(duration)
    }
    if let price = item.price {
      raw(",\"price\":")
      // The shortest form that reads back as the same Double; null where JSON has no number.
      if price.isFinite {
        ascii(price.description)
      } else {
        raw("null")
      }
    }
    field(",\"currency\":", item.currency)
    field(",\"country\":", item.country)
    field(",\"feed_url\":", item.feedUrl)
    if let match = item.match { self.match(match) }
    byte(UInt8(ascii: "}"))
  }

  /// `,"match":"…"`, with `,"typos":…` for a typo and `,"matched_words":[…]` for a partial match.
  mutating func match(_ match: SearchMatch) {
    raw(",\"match\":\"")
    ascii(match.quality.rawValue)
    byte(UInt8(ascii: "\""))
    switch match.quality {
    case .exact, .prefix: break
    case .typo:
      raw(",\"typos\":")
      integer(match.typos)
    case .partial:
      raw(",\"matched_words\":[")
      for (index, word) in match.matchedWords.enumerated() {
        if index > 0 { byte(UInt8(ascii: ",")) }
        string(word)
      }
      byte(UInt8(ascii: "]"))
    }
  }

  /// Item `number` of the built-in catalog: its JSON copied when it was written before, else
  /// written and kept.
  mutating func builtInItem(_ number: Int) {
    let store = BuiltInItemJSON.shared
    if store.copy(number, to: &self) { return }
    let start = position
    writeBuiltInItem(number)
    guard !overflowed else { return }
    store.keep(
      number, UnsafeBufferPointer(start: UnsafePointer(start), count: position - start),
      itemCount: BuiltInCatalog.shared.records.count)
  }

  /// Item `number` of the built-in catalog, written from its record: the fields and their
  /// order `item(_:)` writes for the item it stands for (the catalog has no preview, artwork,
  /// country or feed).
  private mutating func writeBuiltInItem(_ number: Int) {
    let catalog = BuiltInCatalog.shared
    let record = catalog.records[number]
    let kind = BuiltInCatalog.Kind(rawValue: UInt8(bitPattern: record.kind)) ?? .song
    let id = BuiltInCatalog.firstId + number
    raw("{\"id\":")
    // The id again ends the URL: its digits are copied rather than written twice.
    let idStart = position
    integer(id)
    let idLength = position - idStart
    raw(",\"kind\":\"")
    raw(kind.staticName)
    byte(UInt8(ascii: "\""))
    let none = CatalogItemNames.none
    let title = record.track != none ? record.track : record.collection != none ? record.collection : record.artist
    let escapes = BuiltInCatalog.namesNeedingEscapes
    name(",\"title\":", title, in: catalog, needingEscapes: escapes)
    name(",\"artist\":", record.artist, in: catalog, needingEscapes: escapes)
    name(",\"collection\":", record.collection, in: catalog, needingEscapes: escapes)
    raw(",\"url\":\"https://catalog.invalid/")
    raw(kind.path)
    copy(UnsafeBufferPointer(start: idStart, count: idLength))
    byte(UInt8(ascii: "\""))
    if record.year > 0 {
      raw(",\"release_date\":\"")
      // Written beside, then copied: the date is shorter than its capacity, and the copy is
      // held to the cursor's end.
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: BuiltInCatalog.dateCapacity) { date in
        let count = BuiltInCatalog.writeReleaseDate(of: record, to: date)
        copy(UnsafeBufferPointer(rebasing: date[..<count]))
      }
      raw("\",\"release_year\":")
      integer(Int(record.year))
    }
    name(",\"genre\":", record.genre, in: catalog, needingEscapes: escapes)
    if record.millis > 0 {
      raw(",\"duration_ms\":")
      integer(Int(record.millis))
    }
    if record.cents > 0 {
      raw(",\"price\":")
      price(cents: Int(record.cents))
      raw(",\"currency\":\"USD\"")
    }
    byte(UInt8(ascii: "}"))
  }

  /// `key` and the catalog's name numbered `name` as a JSON string; nothing for no name.
  @inline(__always)
  private mutating func name(
    _ key: StaticString, _ name: Int32, in catalog: BuiltInCatalog, needingEscapes: [Bool]
  ) {
    guard name != CatalogItemNames.none else { return }
    raw(key)
    let bytes = catalog.nameBytes(Int(name))
    guard !needingEscapes[Int(name)], let source = bytes.baseAddress else {
      string(bytes: bytes)
      return
    }
    byte(UInt8(ascii: "\""))
    copy(UnsafeBufferPointer(start: source, count: bytes.count))
    byte(UInt8(ascii: "\""))
  }

  /// `cents` (positive) in dollars as `Double(cents) / 100` describes itself: the shortest
  /// decimal, with at least one digit after the point ("12.0", "12.5", "12.99", "0.05").
  private mutating func price(cents: Int) {
    integer(cents / 100)
    byte(UInt8(ascii: "."))
    let fraction = cents % 100
    if fraction % 10 == 0 {
      byte(0x30 + UInt8(truncatingIfNeeded: fraction / 10))
    } else {
      byte(0x30 + UInt8(truncatingIfNeeded: fraction / 10))
      byte(0x30 + UInt8(truncatingIfNeeded: fraction % 10))
    }
  }
}
