// How a stored answer's items are written in the `items` column: a compact binary form, because a
// disk hit decodes them on the search's path and Foundation's JSONDecoder took 0.6 ms for 25 items
// on Linux (the benchmark's "disk" section). Every field of every item is kept.

/// Encodes and decodes `[Category: [SearchItem]]` as bytes.
///
/// Layout (integers little-endian): the format byte ``format``; the number of categories (UInt32);
/// per category its name, the number of items (UInt32), and per item `id` (Int64), a UInt32 mask of
/// which optional fields are present (bit `n` for the `n`-th of ``strings``, then ``integers``,
/// then `price`, then `match`), and the present values in that order. A string is its UTF-8 length
/// (UInt32) and bytes; an integer an Int64; `price` the Double's bit pattern (UInt64); `match` its
/// quality's name, its typos (UInt32) and its matched words (a UInt32 count, then each string), so
/// that an answer read back says how each item matched, as the fresh one did. Rows written before
/// `match` was stored lack its bit and read back without one.
package enum StoredItemsCoding {
  /// The first byte of this layout. Version 1 files stored JSON, which starts with `{`.
  static let format: UInt8 = 1

  private static let strings: [WritableKeyPath<SearchItem, String?> & Sendable] = [
    \.wrapperType, \.kind, \.trackName, \.collectionName, \.artistName, \.trackViewUrl, \.collectionViewUrl,
    \.previewUrl, \.artworkUrl100, \.artworkUrl, \.releaseDate, \.primaryGenreName, \.currency, \.country,
    \.feedUrl,
  ]
  private static let integers: [WritableKeyPath<SearchItem, Int?> & Sendable] = [
    \.trackId, \.collectionId, \.artistId, \.trackTimeMillis, \.popularity,
  ]

  package static func encode(_ items: [Category: [SearchItem]]) -> [UInt8] {
    var output: [UInt8] = [format]
    append(UInt64(items.count), bytes: 4, to: &output)
    for (category, list) in items.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      append(category.rawValue, to: &output)
      append(UInt64(list.count), bytes: 4, to: &output)
      for item in list { append(item, to: &output) }
    }
    return output
  }

  /// The items, or nil when `bytes` are not in this layout (damaged, or cut short).
  package static func decode(_ bytes: [UInt8]) -> [Category: [SearchItem]]? {
    var reader = Reader(bytes: bytes)
    guard reader.byte() == format, let categories = reader.integer(bytes: 4) else { return nil }
    var items: [Category: [SearchItem]] = [:]
    for _ in 0..<categories {
      guard let name = reader.string(), let category = Category(rawValue: name), let count = reader.integer(bytes: 4),
        count <= UInt64(bytes.count)
      else { return nil }
      var list: [SearchItem] = []
      list.reserveCapacity(Int(count))
      for _ in 0..<count {
        guard let item = item(from: &reader) else { return nil }
        list.append(item)
      }
      items[category] = list
    }
    return reader.isAtEnd ? items : nil
  }

  private static func append(_ item: SearchItem, to output: inout [UInt8]) {
    append(UInt64(bitPattern: Int64(item.id)), bytes: 8, to: &output)
    var mask: UInt64 = 0
    for (bit, path) in strings.enumerated() where item[keyPath: path] != nil { mask |= 1 << bit }
    for (bit, path) in integers.enumerated() where item[keyPath: path] != nil { mask |= 1 << (strings.count + bit) }
    if item.price != nil { mask |= 1 << (strings.count + integers.count) }
    if item.match != nil { mask |= 1 << matchBit }
    append(mask, bytes: 4, to: &output)
    for path in strings { if let text = item[keyPath: path] { append(text, to: &output) } }
    for path in integers {
      if let number = item[keyPath: path] { append(UInt64(bitPattern: Int64(number)), bytes: 8, to: &output) }
    }
    if let price = item.price { append(price.bitPattern, bytes: 8, to: &output) }
    if let match = item.match {
      append(match.quality.rawValue, to: &output)
      append(UInt64(match.typos), bytes: 4, to: &output)
      append(UInt64(match.matchedWords.count), bytes: 4, to: &output)
      for word in match.matchedWords { append(word, to: &output) }
    }
  }

  /// The mask's bit for `match`, after every field's.
  private static var matchBit: Int { strings.count + integers.count + 1 }

  /// A stored `match`, or nil when its bytes are not one.
  private static func match(from reader: inout Reader) -> SearchMatch? {
    guard let name = reader.string(), let quality = SearchMatch.Quality(rawValue: name),
      let typos = reader.integer(bytes: 4), let count = reader.integer(bytes: 4), count <= UInt64(reader.bytes.count)
    else { return nil }
    var words: [String] = []
    for _ in 0..<count {
      guard let word = reader.string() else { return nil }
      words.append(word)
    }
    switch quality {
    case .exact: return .exact
    case .prefix: return .prefix
    case .typo: return .typo(Int(typos))
    case .partial: return SearchMatch(.partial, matchedWords: words)
    }
  }

  private static func item(from reader: inout Reader) -> SearchItem? {
    guard let id = reader.integer(bytes: 8), let mask = reader.integer(bytes: 4) else { return nil }
    var item = SearchItem(id: Int(Int64(bitPattern: id)))
    for (bit, path) in strings.enumerated() where mask & (1 << bit) != 0 {
      guard let text = reader.string() else { return nil }
      item[keyPath: path] = text
    }
    for (bit, path) in integers.enumerated() where mask & (1 << (strings.count + bit)) != 0 {
      guard let number = reader.integer(bytes: 8) else { return nil }
      item[keyPath: path] = Int(Int64(bitPattern: number))
    }
    if mask & (1 << (strings.count + integers.count)) != 0 {
      guard let bits = reader.integer(bytes: 8) else { return nil }
      item.price = Double(bitPattern: bits)
    }
    if mask & (1 << matchBit) != 0 {
      guard let match = match(from: &reader) else { return nil }
      item.match = match
    }
    return item
  }

  private static func append(_ value: UInt64, bytes: Int, to output: inout [UInt8]) {
    for index in 0..<bytes { output.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
  }

  private static func append(_ text: String, to output: inout [UInt8]) {
    let utf8 = Array(text.utf8)
    append(UInt64(utf8.count), bytes: 4, to: &output)
    output.append(contentsOf: utf8)
  }

  /// Reads the layout from the front, checking every length against what is left.
  private struct Reader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8? {
      guard offset < bytes.count else { return nil }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func integer(bytes count: Int) -> UInt64? {
      guard bytes.count - offset >= count else { return nil }
      var value: UInt64 = 0
      for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * index) }
      offset += count
      return value
    }

    mutating func string() -> String? {
      guard let length = integer(bytes: 4), UInt64(bytes.count - offset) >= length else { return nil }
      let end = offset + Int(length)
      defer { offset = end }
      return String(validating: bytes[offset..<end], as: UTF8.self)
    }
  }
}
