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
    let root =
      packageRoot(filePath: filePath)
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

  /// Whether a missing shared folder is a failure: under CI, unless `STREAM_SEARCH_SHARED`
  /// points elsewhere on purpose (`.ci/run`'s second pass, a fresh clone with nothing beside it).
  public static var mustBePresent: Bool {
    isCI && (ProcessInfo.processInfo.environment[environmentKey] ?? "").isEmpty
  }

  /// The one line a cross-check prints when it is skipped for want of the shared folder.
  public static let absentNote = "../shared is absent (or STREAM_SEARCH_SHARED is empty): cross-check skipped"

  /// The project's own fixtures, `Tests/Fixtures/<name>` in the package.
  public static func projectFolder(_ name: String, filePath: String = #filePath) -> URL {
    let root =
      packageRoot(filePath: filePath)
      ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    return root.appendingPathComponent("Tests/Fixtures/\(name)", isDirectory: true)
  }

  /// Every `*.json` file of the project's own iTunes-shaped answers, sorted by name.
  public static func projectITunesFiles(filePath: String = #filePath) -> [URL] {
    let folder = projectFolder("itunes", filePath: filePath)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
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
