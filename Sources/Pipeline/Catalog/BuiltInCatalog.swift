// The built-in catalog: real films, music, podcasts and TV episodes compiled into the binary by
// the CatalogData target, read once at start-up into compact records and a table of names.
import CatalogData

/// The embedded catalog (docs/catalog.md: sources, format, popularity) as a `CatalogItemStore`.
///
/// The bytes are a small text format written by `Sources/CatalogData/build_catalog.py`: every
/// distinct folded word once, sorted; every distinct name once with its forms' words' numbers;
/// then one line of numbers per item. Start-up splits lines and makes one `String` per distinct name
/// and one `FoldedWord` per distinct word, folds nothing, and renders an item only when an
/// answer includes it.
struct BuiltInCatalog: CatalogItemStore {
  /// What the file says an item is.
  enum Kind: UInt8 {
    case song = 0x73
    case album = 0x61
    case movie = 0x6D
    case podcast = 0x70
    case tvEpisode = 0x74
  }

  /// One item: its kind, the numbers of its names and its numeric fields.
  struct Record {
    var kind: Kind
    var track: Int32
    var collection: Int32
    var artist: Int32
    var genre: Int32
    /// Year, month and day of release; 0 where unknown (a month of 0: only the year is known).
    var year: UInt16
    var month: UInt8
    var day: UInt8
    var popularity: Int32
    var millis: Int32
    var cents: Int32
  }

  /// The id of item 0; item `i` has id `firstId + i`.
  static let firstId = 1_500_000_000
  /// The catalog compiled into this binary, read once.
  static let shared = BuiltInCatalog(
    UnsafeRawBufferPointer(start: stream_search_catalog_bytes(), count: Int(stream_search_catalog_length())))

  let records: [Record]
  let nameTable: [String]
  /// The items rendered last (see `item(at:)`).
  let rendered = RenderedItems()
  /// The names' folded words as the converter wrote them.
  let folded: FoldedNames
  /// How many lines the reader could not use; 0 for the data the converter writes.
  let malformedLines: Int

  /// The first line of the format this reader reads.
  static let formatLine = "stream-search catalog 3"

  /// Reads a catalog in the converter's format; lines that do not parse are counted and left out
  /// (a name line whose word numbers do not parse keeps its name, with no forms).
  init(_ bytes: UnsafeRawBufferPointer) {
    var lines = CatalogLines(bytes)
    var words: [FoldedWord] = []
    var names: [String] = []
    var formStart: [Int32] = [0]
    var formBounds: [Int32] = [0]
    var tokens: [Int32] = []
    var records: [Record] = []
    var malformed = 0
    if let format = lines.next(), format.elementsEqual(Self.formatLine.utf8),
      let wordCount = lines.nextCount(after: "words ")
    {
      words.reserveCapacity(wordCount)
      for _ in 0..<wordCount {
        guard let line = lines.next() else { break }
        // Most words are ASCII, whose bytes are their scalars.
        let isASCII = line.allSatisfy { $0 < 0x80 }
        words.append(
          isASCII ? line.map(UInt32.init) : String(decoding: line, as: UTF8.self).unicodeScalars.map(\.value))
      }
      let nameCount = lines.nextCount(after: "names ") ?? 0
      names.reserveCapacity(nameCount)
      for _ in 0..<nameCount {
        guard let line = lines.next() else { break }
        var fields = CatalogFields(line)
        names.append(String(decoding: fields.next() ?? line, as: UTF8.self))
        let (tokensBefore, formsBefore) = (tokens.count, formBounds.count)
        var isValid = !fields.isAtEnd
        while isValid, let form = fields.next() {
          isValid = Self.appendWordIds(form, below: words.count, to: &tokens)
          formBounds.append(Int32(tokens.count))
        }
        if !isValid {
          tokens.removeSubrange(tokensBefore...)
          formBounds.removeSubrange(formsBefore...)
          malformed += 1
        }
        formStart.append(Int32(formBounds.count - 1))
      }
      let itemCount = lines.nextCount(after: "items ") ?? 0
      records.reserveCapacity(itemCount)
      while let line = lines.next() {
        if let record = Self.record(line, nameCount: names.count) {
          records.append(record)
        } else {
          malformed += 1
        }
      }
    } else {
      malformed = 1
    }
    self.records = records
    nameTable = names
    folded = FoldedNames(words: words, formStart: formStart, formBounds: formBounds, tokens: tokens)
    malformedLines = malformed
  }

  /// Appends the space-separated word numbers of `field`, each below `wordCount`; false when
  /// it holds anything else.
  private static func appendWordIds(
    _ field: UnsafeRawBufferPointer.SubSequence, below wordCount: Int, to tokens: inout [Int32]
  ) -> Bool {
    guard !field.isEmpty else { return true }
    // Digit by digit rather than splitting, which would allocate an array per name.
    var value = 0
    var digits = 0
    for byte in field {
      if byte == 0x20 {
        guard digits > 0, value < wordCount else { return false }
        tokens.append(Int32(value))
        (value, digits) = (0, 0)
      } else {
        guard (0x30...0x39).contains(byte), digits < 9 else { return false }
        (value, digits) = (value * 10 + Int(byte - 0x30), digits + 1)
      }
    }
    guard digits > 0, value < wordCount else { return false }
    tokens.append(Int32(value))
    return true
  }

  /// `kind track collection artist genre date popularity millis cents`, tab-separated; a name
  /// is a number into the table or `-`, the date `YYYY`, `YYYY-MM-DD` or empty.
  private static func record(_ line: UnsafeRawBufferPointer.SubSequence, nameCount: Int) -> Record? {
    var fields = CatalogFields(line)
    func name() -> Int32? {
      guard let text = fields.next() else { return nil }
      if text.count == 1 && text[text.startIndex] == 0x2D { return CatalogItemNames.none }
      guard let number = CatalogLines.number(text), number < nameCount else { return nil }
      return Int32(number)
    }
    guard let kindField = fields.next(), kindField.count == 1,
      let kind = Kind(rawValue: kindField[kindField.startIndex]),
      let track = name(), let collection = name(), let artist = name(), let genre = name(),
      let date = fields.next().flatMap(Self.date), let popularity = fields.next().flatMap(CatalogLines.number),
      let millis = fields.next().flatMap(CatalogLines.number), let cents = fields.next().flatMap(CatalogLines.number),
      fields.isAtEnd
    else { return nil }
    return Record(
      kind: kind, track: track, collection: collection, artist: artist, genre: genre, year: date.year,
      month: date.month, day: date.day, popularity: Int32(clamping: popularity), millis: Int32(clamping: millis),
      cents: Int32(clamping: cents))
  }

  /// `YYYY-MM-DD`, `YYYY` (month and day 0) or empty (all 0); nil for anything else.
  private static func date(_ text: UnsafeRawBufferPointer.SubSequence) -> (year: UInt16, month: UInt8, day: UInt8)? {
    if text.isEmpty { return (0, 0, 0) }
    let first = text.startIndex
    guard let year = CatalogLines.number(text.prefix(4)), text.count == 4 || text.count == 10 else { return nil }
    guard text.count == 10 else { return (UInt16(clamping: year), 0, 0) }
    guard text[first + 4] == 0x2D, text[first + 7] == 0x2D,
      let month = CatalogLines.number(text[(first + 5)..<(first + 7)]),
      let day = CatalogLines.number(text[(first + 8)...])
    else { return nil }
    return (UInt16(clamping: year), UInt8(clamping: month), UInt8(clamping: day))
  }

  var count: Int { records.count }

  /// The distinct name numbered `id`.
  func name(_ id: Int) -> String {
    nameTable[id]
  }

  func foldedNames() -> FoldedNames {
    folded
  }

  func category(at position: Int) -> Category? {
    switch records[position].kind {
    case .song, .album: .music
    case .movie: .movies
    case .podcast: .podcasts
    case .tvEpisode: .tvShow
    }
  }

  func rankKey(at position: Int) -> (popularity: Int, id: Int) {
    (Int(records[position].popularity), Self.firstId + position)
  }

  func names(at position: Int) -> CatalogItemNames {
    let record = records[position]
    return CatalogItemNames(track: record.track, collection: record.collection, artist: record.artist)
  }
}

/// The tab-separated fields of one line, left to right, without copying.
struct CatalogFields {
  private let line: UnsafeRawBufferPointer.SubSequence
  private var position: Int
  /// Whether the last field has been read.
  private(set) var isAtEnd = false

  init(_ line: UnsafeRawBufferPointer.SubSequence) {
    self.line = line
    position = line.startIndex
  }

  /// The next field, nil after the last.
  mutating func next() -> UnsafeRawBufferPointer.SubSequence? {
    guard !isAtEnd else { return nil }
    var end = position
    while end < line.endIndex && line[end] != 0x09 { end += 1 }
    defer { if end == line.endIndex { isAtEnd = true } else { position = end + 1 } }
    return line[position..<end]
  }
}

/// The lines of a byte buffer, without their `\n`, and the decimal numbers in them.
struct CatalogLines {
  private let bytes: UnsafeRawBufferPointer
  private var position = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The next line, nil at the end (a last line without `\n` still counts).
  mutating func next() -> UnsafeRawBufferPointer.SubSequence? {
    guard position < bytes.count else { return nil }
    // A plain loop: the generic `firstIndex(of:)` on a slice was a twentieth of start-up.
    var end = position
    while end < bytes.count && bytes[end] != 0x0A { end += 1 }
    defer { position = end + 1 }
    return bytes[position..<end]
  }

  /// The number on the next line when it reads `prefix` followed by the number.
  mutating func nextCount(after prefix: String) -> Int? {
    guard let line = next(), line.starts(with: prefix.utf8) else { return nil }
    return Self.number(line.dropFirst(prefix.utf8.count))
  }

  /// A non-negative decimal number of at most nine digits, nil for anything else.
  static func number(_ digits: UnsafeRawBufferPointer.SubSequence) -> Int? {
    guard !digits.isEmpty, digits.count <= 9 else { return nil }
    var value = 0
    for digit in digits {
      guard (0x30...0x39).contains(digit) else { return nil }
      value = value * 10 + Int(digit - 0x30)
    }
    return value
  }
}

extension CatalogSource {
  /// Every item of the built-in catalog, rendered (for the benchmark's queries and tests).
  package static var builtInItems: [SearchItem] {
    (0..<BuiltInCatalog.shared.count).map(BuiltInCatalog.shared.item(at:))
  }
}
