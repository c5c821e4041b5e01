// Reads a catalog file for `CatalogSource`: a JSON array of items, or a saved iTunes Search API
// response (`{"resultCount": …, "results": […]}`), so a real answer can be replayed offline.
import Foundation

extension CatalogSource {
  /// The items in the JSON file at `path`, for `CatalogSource(items:)`.
  ///
  /// The file holds either an array of items or an iTunes response object with a `results`
  /// array; items are decoded as `SearchItem`s with `JSONDecoder`, unknown fields ignored.
  ///
  /// ```swift
  /// let source = CatalogSource(items: try CatalogSource.load(contentsOf: "saved-search.json"))
  /// ```
  ///
  /// - Throws: `CatalogFileError` when the file cannot be read, is not JSON, has another
  ///   shape, or holds an item that does not decode; its `message` is one line naming the file.
  public static func load(contentsOf path: String) throws(CatalogFileError) -> [SearchItem] {
    let data = try readData(path)
    let json: Any
    do {
      json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      throw .notJSON(path: path, reason: Self.describe(parseError: error))
    }
    let decoder = JSONDecoder()
    do {
      if json is [Any] {
        return try decoder.decode([SearchItem].self, from: data)
      }
      if let object = json as? [String: Any], object["results"] is [Any] {
        return try decoder.decode(ITunesResponse.self, from: data).results
      }
    } catch let error as DecodingError {
      throw .invalidItem(path: path, index: Self.itemIndex(of: error), reason: Self.describe(error))
    } catch {
      throw .invalidItem(path: path, index: 0, reason: Self.oneLine(String(describing: error)))
    }
    throw .wrongShape(path: path, found: Self.describe(shape: json))
  }

  /// The outer object of an iTunes Search API response.
  private struct ITunesResponse: Decodable {
    let results: [SearchItem]
  }

  private static func readData(_ path: String) throws(CatalogFileError) -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .unreadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else {
      throw .unreadable(path: path, reason: "it is a directory")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let reason = FileManager.default.isReadableFile(atPath: path) ? error.localizedDescription : "permission denied"
      throw .unreadable(path: path, reason: oneLine(reason))
    }
    guard !data.isEmpty else {
      throw .notJSON(path: path, reason: "the file is empty")
    }
    return data
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
    return oneLine(debug ?? error.localizedDescription)
  }

  private static func describe(shape json: Any) -> String {
    switch json {
    case is [String: Any]: "an object without a \"results\" array"
    case is String: "a string"
    case is NSNull: "null"
    case is NSNumber: "a number"
    default: "another value"
    }
  }

  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}
