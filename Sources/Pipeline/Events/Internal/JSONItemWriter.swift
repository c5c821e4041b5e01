// Writes search items as JSON straight into bytes reserved for them. A results event carries up
// to 75 items a keystroke; appending their fifteen fields to an array one call at a time, each
// call checking the array's capacity and uniqueness, cost more than finding the items. An item of
// the built-in catalog is written straight from its record, its names copied from the catalog's
// bytes: no string is made for it.

/// Writes items as JSON objects, the shape docs/events.md gives, into reserved bytes.
enum JSONItemWriter {
  /// Appends `items` to `output` as JSON objects separated by commas.
  static func append(_ items: [SearchItem], to output: inout [UInt8]) {
    let bound = items.reduce(items.count) { $0 + maximumLength(of: $1) }
    // Written into uninitialised bytes, then copied once: filling the bound first (six times the
    // strings' length, for escapes that hardly ever come) cost more than the writing.
    let written = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
      guard let base = buffer.baseAddress else { return }
      var cursor = Cursor(position: base)
      for (index, item) in items.enumerated() {
        if index > 0 { cursor.byte(UInt8(ascii: ",")) }
        cursor.item(item)
      }
      count = cursor.position - base
    }
    output.append(contentsOf: written)
  }

  /// The most bytes `item` can take: every key, every string six times over (each byte escaped
  /// as `\u00XX`), and the longest integers and price.
  private static func maximumLength(of item: SearchItem) -> Int {
    if let position = item.builtInCatalogPosition { return maximumLength(ofBuiltIn: position) }
    func length(_ text: String?) -> Int { 2 + 6 * (text?.utf8.count ?? 0) }
    // Added up field by field: an array of the twelve strings cost more than writing them.
    var total = keysLength + 3 * 24 + 32
    total += length(item.kind) + length(item.title) + length(item.artistName) + length(item.collectionName)
    total += length(item.trackViewUrl ?? item.collectionViewUrl) + length(item.previewUrl)
    total += length(item.artworkUrl ?? item.artworkUrl100) + length(item.releaseDate) + length(item.primaryGenreName)
    total += length(item.currency) + length(item.country) + length(item.feedUrl)
    return total
  }

  /// The same for item `position` of the built-in catalog: its four names, escaped, and the rest
  /// (id, kind, URL, date, numbers) far less than `keysLength` more.
  private static func maximumLength(ofBuiltIn position: Int) -> Int {
    let catalog = BuiltInCatalog.shared
    let record = catalog.records[position]
    func length(_ name: Int32) -> Int { name == CatalogItemNames.none ? 0 : 2 + 6 * catalog.nameBytes(Int(name)).count }
    // The title is one of the other names again.
    let names = length(record.track) + length(record.collection) + length(record.artist) + length(record.genre)
    return keysLength + BuiltInCatalog.urlCapacity + BuiltInCatalog.dateCapacity + 3 * 24 + 2 * names
  }

  /// All keys of an item together, with their punctuation.
  private static let keysLength = 200

  /// Where the next byte goes; the caller has reserved enough.
  private struct Cursor {
    var position: UnsafeMutablePointer<UInt8>

    mutating func byte(_ value: UInt8) {
      position.pointee = value
      position += 1
    }

    mutating func raw(_ text: StaticString) {
      text.withUTF8Buffer { bytes in
        guard let source = bytes.baseAddress else { return }
        position.update(from: source, count: bytes.count)
        position += bytes.count
      }
    }

    mutating func integer(_ value: Int) {
      var magnitude = value.magnitude
      if value < 0 { byte(UInt8(ascii: "-")) }
      var digits = 1
      var bound: UInt = 10
      while digits < 19 && magnitude >= bound {
        digits += 1
        bound &*= 10
      }
      // Two digits per division by 100: half the divisions of one digit at a time.
      var index = digits
      while index >= 2 {
        let pair = magnitude % 100
        magnitude /= 100
        index -= 2
        position[index] = 0x30 + UInt8(truncatingIfNeeded: pair / 10)
        position[index + 1] = 0x30 + UInt8(truncatingIfNeeded: pair % 10)
      }
      if index == 1 { position[0] = 0x30 + UInt8(truncatingIfNeeded: magnitude) }
      position += digits
    }

    /// `value`'s UTF-8 bytes as a JSON string.
    mutating func string(bytes value: UnsafeBufferPointer<UInt8>) {
      byte(UInt8(ascii: "\""))
      bytes(of: value)
      byte(UInt8(ascii: "\""))
    }

    /// `value` as a JSON string (see `JSONBytes.appendString`).
    mutating func string(_ value: borrowing String) {
      byte(UInt8(ascii: "\""))
      // Native strings hand out their bytes without a copy; others (bridged) are copied once.
      if value.utf8.withContiguousStorageIfAvailable({ bytes(of: $0) }) == nil {
        let copy = Array(value.utf8)
        copy.withUnsafeBufferPointer { bytes(of: $0) }
      }
      byte(UInt8(ascii: "\""))
    }

    /// The UTF-8 bytes of a string, escaped where JSON needs it.
    private mutating func bytes(of bytes: UnsafeBufferPointer<UInt8>) {
      guard let source = bytes.baseAddress else { return }
      if !JSONBytes.needsEscaping(bytes) {
        position.update(from: source, count: bytes.count)
        position += bytes.count
        return
      }
      for byte in bytes {
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          self.byte(byte)
          continue
        }
        self.byte(UInt8(ascii: "\\"))
        if byte >= 0x20 {
          self.byte(byte)
        } else if JSONBytes.shortEscapes[Int(byte)] != 0 {
          self.byte(JSONBytes.shortEscapes[Int(byte)])
        } else {
          for escaped in [UInt8(ascii: "u"), 0x30, 0x30, JSONBytes.hexDigits[Int(byte >> 4)]] { self.byte(escaped) }
          self.byte(JSONBytes.hexDigits[Int(byte & 0xF)])
        }
      }
    }

    mutating func field(_ key: StaticString, _ value: borrowing String?) {
      switch value {
      case .some(let text):
        raw(key)
        string(text)
      case .none:
        break
      }
    }

    mutating func item(_ item: borrowing SearchItem) {
      if let position = item.builtInCatalogPosition {
        builtInItem(position)
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
      field(",\"release_date\":", item.releaseDate)
      field(",\"genre\":", item.primaryGenreName)
      if let duration = item.trackTimeMillis {
        raw(",\"duration_ms\":")
        integer(duration)
      }
      if let price = item.price {
        raw(",\"price\":")
        // The shortest form that reads back as the same Double; null where JSON has no number.
        if price.isFinite {
          for byte in price.description.utf8 { self.byte(byte) }
        } else {
          raw("null")
        }
      }
      field(",\"currency\":", item.currency)
      field(",\"country\":", item.country)
      field(",\"feed_url\":", item.feedUrl)
      byte(UInt8(ascii: "}"))
    }

    /// Item `number` of the built-in catalog, written from its record: the fields and their
    /// order `item(_:)` writes for the item it stands for (the catalog has no preview, artwork,
    /// country or feed).
    mutating func builtInItem(_ number: Int) {
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
      position.update(from: idStart, count: idLength)
      position += idLength
      byte(UInt8(ascii: "\""))
      if record.year > 0 {
        raw(",\"release_date\":\"")
        position += BuiltInCatalog.writeReleaseDate(
          of: record, to: UnsafeMutableBufferPointer(start: position, count: BuiltInCatalog.dateCapacity))
        byte(UInt8(ascii: "\""))
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
      position.update(from: source, count: bytes.count)
      position += bytes.count
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
}
