// Tools some tests need and a bare machine lacks (tmux, the sqlite3 command, a way to hide files
// from a child; redis-server has its own fixture, RedisServer). Elsewhere such a test is skipped with one line naming what is
// missing; under CI (`CI=true`) it runs and fails saying so, so CI never loses it silently.
import Foundation

/// A program a test needs, looked for on `PATH` (or by a check of its own).
///
/// ```swift
/// static let tmux = RequiredTool.executable("tmux", installedBy: "tmux")
///
/// @Test(.enabled(if: tmux.isAvailableOrCI, Comment(rawValue: tmux.skipNote)))
/// func drawsInTmux() throws {
///   let path = try Self.tmux.path()
///   …
/// }
/// ```
public struct RequiredTool: Sendable {
  /// What the user would install, as the skip line names it.
  public let name: String
  /// Where it is, or nil when this machine lacks it.
  public let location: String?
  /// Why it is missing, when it is.
  private let missingReason: String

  /// A program called `name`, found on `PATH` or in /usr/sbin and /sbin (where Debian puts
  /// daemons such as nginx, off a normal user's `PATH`).
  public static func executable(_ name: String, installedBy package: String? = nil) -> RequiredTool {
    let found = searchPath.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    let install = package.map { " (Debian, Ubuntu: apt-get install \($0))" } ?? ""
    return RequiredTool(name: name, location: found, missingReason: "\(name) is not installed\(install)")
  }

  private static var searchPath: [String] {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(
      String.init)
      + ["/usr/sbin", "/sbin"]
  }

  /// A Python 3 that can import `module`: the first `python3` on `PATH` that can, else the
  /// system's `/usr/bin/python3` (a Debian package such as python3-websockets installs there,
  /// which a pyenv or virtualenv `python3` earlier on `PATH` does not see). Its ``location`` is
  /// that interpreter.
  public static func pythonModule(_ module: String, installedBy package: String? = nil) -> RequiredTool {
    let candidates = (searchPath.map { "\($0)/python3" } + ["/usr/bin/python3"])
      .filter { FileManager.default.isExecutableFile(atPath: $0) }
    var seen = Set<String>()
    for python in candidates where seen.insert(python).inserted {
      guard
        let check = try? ChildProcess(
          python, arguments: ["-c", "import \(module)"], standardOutput: .nullDevice, standardError: .nullDevice)
      else { continue }
      let exit = check.waitForExit(atMost: .seconds(30))
      if exit == nil { check.signal(SIGKILL) }
      if exit == ChildExit(status: 0, signaled: false) {
        return RequiredTool(name: "python3 \(module)", location: python, missingReason: "")
      }
    }
    let install = package.map { " (Debian, Ubuntu: apt-get install \($0))" } ?? ""
    return RequiredTool(
      name: "python3 \(module)", location: nil, missingReason: "no python3 can import \(module)\(install)")
  }

  /// `.ci/bare-machine`: a child run in a private mount namespace with chosen files hidden (as on
  /// a machine without them). Needs root, `unshare` and overlay mounts.
  public static let bareMachine: RequiredTool = {
    let script = SharedFixtures.packageRoot().map { $0.appendingPathComponent(".ci/bare-machine").path }
    guard let script, FileManager.default.isExecutableFile(atPath: script) else {
      return RequiredTool(name: "bare-machine", location: nil, missingReason: ".ci/bare-machine is not in the package")
    }
    let said: String
    let exit: ChildExit?
    do {
      let errors = try ChildProcess.pipe()
      let check: ChildProcess
      do {
        check = try ChildProcess(
          script, arguments: ["--check"], standardOutput: .nullDevice, standardError: .descriptor(errors.writeEnd))
        close(errors.writeEnd)
      } catch {
        close(errors.readEnd)
        close(errors.writeEnd)
        throw error
      }
      // A check that hangs must not hang every test that asks for the tool. It says at most one
      // line, which the pipe holds until it is read after the exit.
      exit = check.waitForExit(atMost: .seconds(60))
      if exit == nil { check.signal(SIGKILL) }
      said = String(decoding: readToEnd(errors.readEnd), as: UTF8.self)
      close(errors.readEnd)
    } catch {
      return RequiredTool(name: "bare-machine", location: nil, missingReason: "cannot run .ci/bare-machine: \(error)")
    }
    guard let exit, exit == ChildExit(status: 0, signaled: false) else {
      let status = exit.map { $0.signaled ? "signal \($0.status)" : "exit \($0.status)" } ?? "no exit within 60 s"
      let reason = said.split(separator: "\n").first.map(String.init) ?? status
      return RequiredTool(name: "bare-machine", location: nil, missingReason: reason)
    }
    return RequiredTool(name: "bare-machine", location: script, missingReason: "")
  }()

  /// Whether this machine has it.
  public var isAvailable: Bool { location != nil }

  /// Whether a test needing it runs: when it is here, and under CI always (there, its absence
  /// fails the test through ``path()``).
  public var isAvailableOrCI: Bool { isAvailable || SharedFixtures.isCI }

  /// The one line a test skipped for want of it prints.
  public var skipNote: String { "\(missingReason): skipped (.ci/run provides it; under CI this fails)" }

  /// Where it is.
  ///
  /// - Throws: ``MissingToolError`` naming what is missing (under CI, where the test ran anyway).
  public func path() throws -> String {
    guard let location else { throw MissingToolError(message: "\(missingReason); .ci/run installs what tests need") }
    return location
  }
}

/// A test needed a tool this machine lacks.
public struct MissingToolError: Error, CustomStringConvertible {
  /// What is missing and how to get it.
  public let message: String
  public var description: String { message }
}
