// Finds executables that `swift build --build-tests` built alongside the test bundle, for tests
// that run them as child processes.
import Foundation

/// Failures to find an executable to run.
public enum SubprocessError: Error, CustomStringConvertible {
  /// No executable called `name` was found in any of `searched`.
  case executableNotFound(name: String, searched: [String])

  /// Says what was looked for and where.
  public var description: String {
    switch self {
    case .executableNotFound(let name, let searched):
      "No executable '\(name)' in \(searched.joined(separator: ", ")); build it first (swift build --build-tests)."
    }
  }
}

/// Finds the products `swift build` put next to the test bundle.
public enum BuiltProducts {
  /// The executable product called `name`, built with the tests.
  ///
  /// Looked for in the directory of `Bundle.main` (the build directory on Linux, where the test
  /// runner is the test binary itself), next to any loaded `.xctest` bundle (macOS, where `xctest`
  /// loads the bundle), and next to this process's executable.
  ///
  /// - Throws: ``SubprocessError/executableNotFound(name:searched:)`` listing the places tried.
  public static func executable(_ name: String) throws -> URL {
    let xctestParents = Bundle.allBundles
      .filter { $0.bundleURL.pathExtension == "xctest" }
      .map { $0.bundleURL.deletingLastPathComponent() }
    let programDirectory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    let directories = [Bundle.main.bundleURL] + xctestParents + [programDirectory]
    for directory in directories {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw SubprocessError.executableNotFound(name: name, searched: directories.map(\.path))
  }
}

/// The built `stream-search` binary, for the tests that run the tool as users do.
///
/// - Throws: ``SubprocessError/executableNotFound(name:searched:)`` when it has not been built.
public func toolBinary() throws -> URL { try BuiltProducts.executable("stream-search") }
