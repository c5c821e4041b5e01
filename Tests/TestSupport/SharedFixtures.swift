// Finds the shared fixtures that live beside the project (never copied into it).
import Foundation

/// Where the shared test material lives: `<package root>/../shared`, or `$STREAM_SEARCH_SHARED`.
///
/// The package root is found by walking up from the calling test file (`#filePath`) to the
/// folder that holds `Package.swift`, so the lookup works from any working directory.
///
/// ```swift
/// @Test(.enabled(if: SharedFixtures.itunesFolder() != nil)) func decodesEveryFixture() { … }
/// ```
public enum SharedFixtures {
  /// The environment variable that overrides the shared folder.
  public static let environmentKey = "STREAM_SEARCH_SHARED"

  /// The shared folder, whether or not it exists.
  public static func sharedFolder(filePath: String = #filePath) -> URL {
    if let override = ProcessInfo.processInfo.environment[environmentKey], !override.isEmpty {
      return URL(fileURLWithPath: override, isDirectory: true)
    }
    let root = packageRoot(filePath: filePath)
      ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    return root.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)
  }

  /// The iTunes fixtures folder, or nil when it does not exist.
  public static func itunesFolder(filePath: String = #filePath) -> URL? {
    let folder = sharedFolder(filePath: filePath)
      .appendingPathComponent("fixtures", isDirectory: true)
      .appendingPathComponent("itunes", isDirectory: true)
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory)
    return exists && isDirectory.boolValue ? folder : nil
  }

  /// Every `*.json` file of the iTunes fixtures folder, sorted by name; empty when it is absent.
  public static func itunesFiles(filePath: String = #filePath) -> [URL] {
    guard let folder = itunesFolder(filePath: filePath),
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { return [] }
    return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
  }

  /// Whether the tests run under CI (`CI=true`), where missing fixtures are a failure.
  public static var isCI: Bool {
    ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
  }

  /// The folder holding `Package.swift`, walking up from `filePath`; nil when none is found.
  public static func packageRoot(filePath: String = #filePath) -> URL? {
    var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while folder.pathComponents.count > 1 {
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        return folder
      }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }
}
