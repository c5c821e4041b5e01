// Loading a catalog from a JSON file: a plain array of items or a saved iTunes response. Every
// failure is a typed error with a one-line message, because the file comes from the user.
import Foundation
import Pipeline

/// Why a catalog file could not be loaded.
public enum CatalogFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file could not be read: missing, a directory, no permission.
  case unreadable(path: String, reason: String)
  /// The file is not JSON.
  case notJSON(path: String, reason: String)
  /// The file is larger than `limit` bytes (``CatalogSource/maximumFileSize``); it was not loaded.
  case tooLarge(path: String, limit: Int)
  /// The JSON is neither an array of items nor an object with a `results` array.
  case wrongShape(path: String, found: String)
  /// An item could not be decoded as a `SearchItem`; `index` counts from 0.
  case invalidItem(path: String, index: Int, reason: String)

  /// A one-line explanation, saying what the file should contain where that helps.
  public var message: String {
    switch self {
    case .unreadable(let path, let reason):
      "cannot read catalog file '\(path)': \(reason)"
    case .notJSON(let path, let reason):
      "catalog file '\(path)' is not JSON: \(reason)"
    case .tooLarge(let path, let limit):
      "catalog file '\(path)' is larger than \(limit >> 20) MiB, the most a catalog may hold"
    case .wrongShape(let path, let found):
      "catalog file '\(path)' holds \(found); expected a JSON array of items or an object with a \"results\" array"
    case .invalidItem(let path, let index, let reason):
      "catalog file '\(path)': item \(index) is invalid: \(reason)"
    }
  }

  /// The same as `message`.
  public var description: String { message }
}
