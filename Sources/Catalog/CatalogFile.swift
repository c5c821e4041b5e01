// Reads a catalog file for `CatalogSource`: a JSON array of items, or a saved iTunes Search API
// response (`{"resultCount": …, "results": […]}`), so a real answer can be replayed offline.
import Foundation
import Pipeline

extension CatalogSource {
  /// The largest catalog file `load(contentsOf:)` reads: 128 MiB, some 250,000 items. Decoding
  /// holds the file and its items at once, so the cap bounds the memory a mistaken path costs.
  public static let maximumFileSize = 128 << 20

  /// The items in the JSON file at `path`, for `CatalogSource(items:)`.
  ///
  /// The file holds either an array of items or an iTunes response object with a `results`
  /// array; items are decoded as `SearchItem`s with `JSONDecoder`, unknown fields ignored.
  ///
  /// ```swift
  /// let saved = FileManager.default.temporaryDirectory.appendingPathComponent("saved-search.json").path
  /// let source = CatalogSource(items: try CatalogSource.load(contentsOf: saved))
  /// ```
  ///
  /// The file's first bytes are checked before the rest is read: one that does not begin (after
  /// any whitespace) like a JSON array or object is refused at once, whatever its size; one that
  /// holds only whitespace is refused at its end; and a file larger than
  /// ``maximumFileSize`` (128 MiB) is refused before it is loaded. The file is read once
  /// into memory and decoded without an intermediate object tree.
  ///
  /// - Throws: `CatalogFileError` when the file cannot be read, is too large, is not JSON, has
  ///   another shape, or holds an item that does not decode; its `message` is one line naming
  ///   the file.
  public static func load(contentsOf path: String) throws(CatalogFileError) -> [SearchItem] {
    // Text that is not Unicode would cost its field silently (see JSONTextRepair).
    let data = JSONTextRepair.repaired(try CatalogFileReader.read(path))
    let decoder = JSONDecoder()
    do {
      // The reader has checked the first byte: `[` is an array of items, `{` an object.
      if data.first(where: { !CatalogFileReader.isWhitespace($0) }) == UInt8(ascii: "[") {
        return try decoder.decode([SearchItem].self, from: data)
      }
      guard let results = try decoder.decode(ITunesResponse.self, from: data).results else {
        throw CatalogFileError.wrongShape(path: path, found: "an object without a \"results\" array")
      }
      return results
    } catch let error as CatalogFileError {
      throw error
    } catch let error as DecodingError {
      if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
        throw .notJSON(path: path, reason: Self.describe(parseError: context.underlyingError ?? error))
      }
      if case .typeMismatch(_, let context) = error, context.codingPath.count == 1,
        context.codingPath.first?.stringValue == "results"
      {
        throw .wrongShape(path: path, found: "an object whose \"results\" is not an array")
      }
      throw .invalidItem(path: path, index: Self.itemIndex(of: error), reason: Self.describe(error))
    } catch {
      throw .invalidItem(path: path, index: 0, reason: Self.oneLine(String(describing: error)))
    }
  }

  /// The outer object of an iTunes Search API response; `results` nil when the object has none.
  private struct ITunesResponse: Decodable {
    let results: [SearchItem]?
  }

  /// The position of the failing item: the first integer in the coding path (the array index,
  /// directly or under `results`).
  private static func itemIndex(of error: DecodingError) -> Int {
    context(of: error)?.codingPath.lazy.compactMap(\.intValue).first ?? 0
  }

  private static func context(of error: DecodingError) -> DecodingError.Context? {
    switch error {
    case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      context
    @unknown default:
      nil
    }
  }

  private static func describe(_ error: DecodingError) -> String {
    let field = context(of: error)?.codingPath.last { $0.intValue == nil }?.stringValue
    switch error {
    case .keyNotFound(let key, _):
      return "missing field '\(key.stringValue)'"
    case .typeMismatch(let type, _):
      return "field '\(field ?? "?")' is not \(type == Int.self ? "an integer" : "a \(type)")"
    case .valueNotFound(_, _):
      return "field '\(field ?? "?")' is null"
    case .dataCorrupted(let context):
      return oneLine(context.debugDescription)
    @unknown default:
      return oneLine(String(describing: error))
    }
  }

  private static func describe(parseError error: any Error) -> String {
    let debug = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    return oneLine(debug ?? String(describing: error))
  }

  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}

/// Reads a catalog file with read(2): the first bytes are checked before the rest is read, and
/// reading stops at ``CatalogSource/maximumFileSize``. Works for regular files and for pipes
/// (`--catalog <(…)`), which have no size to check up front.
enum CatalogFileReader {
  /// The reads until the file's first byte that is not whitespace: enough to see how it begins.
  private static let firstChunk = 4_096
  /// The reads after that.
  private static let chunk = 1 << 20

  static func read(_ path: String) throws(CatalogFileError) -> Data {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(path: path, reason: reason(errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, reason: reason(errno)) }
    let kind = status.st_mode & S_IFMT
    if kind == S_IFDIR { throw .unreadable(path: path, reason: "it is a directory") }
    let limit = CatalogSource.maximumFileSize
    if kind == S_IFREG, status.st_size > limit { throw .tooLarge(path: path, limit: limit) }
    var data = Data()
    if kind == S_IFREG { data.reserveCapacity(Int(status.st_size)) }
    // One buffer for every read(2): a chunk is copied out of it into `data`.
    var buffer = [UInt8](repeating: 0, count: chunk)
    // Small reads until a byte that is not whitespace arrives (or the end): a pipe may deliver
    // only the leading whitespace in its first read, which says nothing about what follows.
    var more = true
    var scanned = 0
    repeat {
      more = try readChunk(descriptor, path: path, upTo: firstChunk, buffer: &buffer, into: &data)
      if data.count > limit { throw .tooLarge(path: path, limit: limit) }
      while scanned < data.count, isWhitespace(data[data.startIndex + scanned]) { scanned += 1 }
    } while more && scanned == data.count
    try checkBeginning(of: data, path: path, kind: kind)
    while more {
      more = try readChunk(descriptor, path: path, upTo: chunk, buffer: &buffer, into: &data)
      if data.count > limit { throw .tooLarge(path: path, limit: limit) }
    }
    return data
  }

  /// Refuses a file that cannot be a catalog from its first bytes: empty, or not starting (after
  /// whitespace) with `[` or `{`.
  private static func checkBeginning(of data: Data, path: String, kind: mode_t) throws(CatalogFileError) {
    guard let first = data.first(where: { !isWhitespace($0) }) else {
      let what = kind == S_IFCHR ? "it is a device that gave no data" : "the file is empty"
      throw .notJSON(path: path, reason: data.isEmpty ? what : "the file holds only whitespace")
    }
    switch first {
    case UInt8(ascii: "["), UInt8(ascii: "{"):
      return
    case UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      throw .wrongShape(path: path, found: "a JSON value that is neither an array nor an object")
    case 0x20...0x7E:
      throw .notJSON(path: path, reason: "it begins with '\(Character(Unicode.Scalar(first)))'")
    default:
      throw .notJSON(path: path, reason: "it begins with the byte 0x\(String(first, radix: 16, uppercase: true))")
    }
  }

  /// Appends up to `count` bytes (at most `buffer`'s size), read through `buffer`; false at the
  /// end of the file.
  private static func readChunk(
    _ descriptor: Int32, path: String, upTo count: Int, buffer: inout [UInt8], into data: inout Data
  ) throws(CatalogFileError) -> Bool {
    let count = min(count, buffer.count)
    while true {
      let got = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, count) }
      if got > 0 {
        data.append(contentsOf: buffer[..<got])
        return true
      }
      if got == 0 { return false }
      if errno != EINTR { throw .unreadable(path: path, reason: reason(errno)) }
    }
  }

  /// JSON whitespace.
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func reason(_ code: Int32) -> String {
    switch code {
    case ENOENT: "no such file"
    case EACCES: "permission denied"
    default: String(cString: strerror(code))
    }
  }
}
