// Rendering an item of the built-in catalog: a record becomes a `SearchItem` only when an answer
// includes it, up to 75 items a keystroke. The items rendered last are kept (the same ones answer
// keystroke after keystroke), and the two made-up strings (the URL and the release date) are
// written byte by byte rather than by string interpolation, which cost more than the search.
import Synchronization

extension BuiltInCatalog {
  func item(at position: Int) -> SearchItem {
    if let kept = rendered.item(at: position) { return kept }
    let item = render(position)
    rendered.keep(item, at: position)
    return item
  }

  private func render(_ position: Int) -> SearchItem {
    let record = records[position]
    let id = Self.firstId + position
    func text(_ name: Int32) -> String? { name == CatalogItemNames.none ? nil : self.name(Int(name)) }
    // The converter writes only these kinds; `category(at:)` leaves any other out of every index.
    let recordKind = Kind(rawValue: UInt8(bitPattern: record.kind)) ?? .song
    let (wrapperType, kind, path): (String, String, StaticString) =
      switch recordKind {
      case .song: ("track", "song", "song/")
      case .album: ("collection", "album", "album/")
      case .movie: ("track", "feature-movie", "movie/")
      case .podcast: ("track", "podcast", "podcast/")
      case .tvEpisode: ("track", "tv-episode", "tv-episode/")
      }
    return SearchItem(
      id: id, wrapperType: wrapperType, kind: kind, trackId: recordKind == .album ? nil : id,
      collectionId: recordKind == .album || recordKind == .podcast ? id : nil,
      trackName: text(record.track), collectionName: text(record.collection), artistName: text(record.artist),
      trackViewUrl: Self.url(path, id), releaseDate: Self.releaseDate(of: record),
      primaryGenreName: text(record.genre), trackTimeMillis: record.millis > 0 ? Int(record.millis) : nil,
      price: record.cents > 0 ? Double(record.cents) / 100 : nil, currency: record.cents > 0 ? "USD" : nil,
      popularity: Int(record.popularity))
  }

  /// "https://catalog.invalid/<path><id>".
  private static func url(_ path: StaticString, _ id: Int) -> String {
    String(unsafeUninitializedCapacity: 64) { buffer in
      var writer = ASCIIWriter(buffer)
      writer.append("https://catalog.invalid/")
      writer.append(path)
      writer.append(id, digits: 0)
      return writer.count
    }
  }

  /// "2014-10-27T00:00:00Z" when the day is known, "2014" when only the year is, else nil.
  private static func releaseDate(of record: Record) -> String? {
    guard record.year > 0 else { return nil }
    return String(unsafeUninitializedCapacity: 24) { buffer in
      var writer = ASCIIWriter(buffer)
      writer.append(Int(record.year), digits: 4)
      if record.month > 0 {
        writer.append("-")
        writer.append(Int(record.month), digits: 2)
        writer.append("-")
        writer.append(Int(record.day), digits: 2)
        writer.append("T00:00:00Z")
      }
      return writer.count
    }
  }
}

/// The items rendered last, one slot per `position % slots`: a few thousand items, about a
/// megabyte at most, and nothing until an answer needs them.
final class RenderedItems: Sendable {
  private static let slots = 4_096
  private let kept = Mutex<[(position: Int, item: SearchItem)?]>([])

  init() {}

  /// The kept item at `position`, nil when its slot holds another or none.
  func item(at position: Int) -> SearchItem? {
    kept.withLock { slots in
      guard !slots.isEmpty, let entry = slots[position % Self.slots], entry.position == position else { return nil }
      return entry.item
    }
  }

  /// Keeps `item` as the one rendered at `position`, in place of its slot's last.
  func keep(_ item: SearchItem, at position: Int) {
    kept.withLock { slots in
      if slots.isEmpty { slots = Array(repeating: nil, count: Self.slots) }
      slots[position % Self.slots] = (position, item)
    }
  }
}

/// Appends ASCII text and decimal numbers to a buffer large enough for them.
private struct ASCIIWriter {
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
