// Without SQLite's runtime library only the disk cache is missing: `--cache-dir` says in one line
// what to install and the run goes on from memory. Through the binary on a simulated machine
// without the library (.ci/bare-machine hides it from the child), and the loader in process.
import Foundation
import TestSupport
import Testing

@testable import Pipeline
@testable import SQLiteStorage

@Suite(.timeLimit(.minutes(10))) struct MissingSQLiteTests {
  @Test func aLibraryThatIsNotThereIsReportedWithWhatToInstall() {
    let loaded = SQLiteLibrary.load(candidates: ["libsqlite3-not-here.so.0"])
    guard case .failure(let missing) = loaded else {
      Issue.record("a library that does not exist was loaded")
      return
    }
    #expect(missing.description.hasPrefix("SQLite's runtime library was not found (libsqlite3-not-here.so.0); "))
    #expect(missing.description.contains("install"))
    #expect(missing.reason.contains("libsqlite3-not-here.so.0"), "dlopen's own words are kept: \(missing.reason)")
  }

  @Test func theLibraryOnThisMachineIsFoundByItsRuntimeName() throws {
    let library = try SQLiteLibrary.shared.get()
    #expect(library.version.hasPrefix("3."))
  }

  /// SQLite's runtime library files in the system's library directories (and their multiarch
  /// subdirectories): what a machine without SQLite lacks.
  private static func runtimeLibraryFiles() -> [String] {
    let manager = FileManager.default
    var found: [String] = []
    for base in ["/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib"] {
      let directories = [base] + ((try? manager.contentsOfDirectory(atPath: base)) ?? []).map { "\(base)/\($0)" }
      for directory in directories {
        for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix("libsqlite3.so") {
          found.append("\(directory)/\(name)")
        }
      }
    }
    return found
  }

  @Test(.enabled(if: RequiredTool.bareMachine.isAvailableOrCI, Comment(rawValue: RequiredTool.bareMachine.skipNote)))
  func withoutTheLibraryCacheDirSaysWhatToInstallInOneLineAndTheRunGoesOn() async throws {
    let script = try RequiredTool.bareMachine.path()
    let hidden = Self.runtimeLibraryFiles()
    #expect(!hidden.isEmpty, "this machine has SQLite's runtime library, so the test can hide it")
    let directory = try freshDirectory()
    try await withStandIn(echoAnswers) { server in
      let result = try await Subprocess.run(
        URL(fileURLWithPath: script),
        arguments: hidden.flatMap { ["--hide", $0] } + ["--", try toolBinary().path]
          + diskArguments(server, directory, ["--verbose"]),
        input: sessionsInput(["abba", "queen"]))
      let events = try checkedEvents(result)
      let warnings = stderrLines(result).filter { $0.hasPrefix("Warning:") }
      #expect(
        warnings == [
          "Warning: disk cache off: SQLite's runtime library was not found (libsqlite3.so.0, libsqlite3.so); "
            + SQLiteLibrary.installHint + "; answers are kept in memory and the rate budget in this process only"
        ])
      #expect(titlesByTerm(events) == expectedTitles(["abba", "queen"]))
      #expect(events.last?.disk == "off")
      #expect(server.requests.count == 2)
      #expect(!FileManager.default.fileExists(atPath: cacheFile(directory)), "nothing is written without SQLite")
    }
  }
}
