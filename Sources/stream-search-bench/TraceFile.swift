// Finds the 200,000-keystroke recording of the "replay" section: the path given by --trace, else
// .bench/trace-200k-seed42.jsonl, generated there with ../shared/tools/gen_trace.py if absent.
import Foundation
import TestSupport

enum TraceFile {
  static let events = 200_000
  static let seed = 42

  /// The recording's lines, or why there is none.
  static func lines(options: BenchOptions) -> Result<[Substring], BenchmarkFailure> {
    let path: String
    switch self.path(options: options) {
    case .success(let found): path = found
    case .failure(let failure): return .failure(failure)
    }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      return .failure(BenchmarkFailure(description: "cannot read the recording at \(path)"))
    }
    return .success(text.split(separator: "\n"))
  }

  /// The recording's path (generated first if absent), or why there is none.
  static func path(options: BenchOptions) -> Result<String, BenchmarkFailure> {
    if let given = options.tracePath { return .success(given) }
    let root = packageRoot()
    let path = root.appendingPathComponent(".bench/trace-200k-seed\(seed).jsonl").path
    if !FileManager.default.fileExists(atPath: path) {
      if let failure = generate(into: path, root: root) { return .failure(failure) }
    }
    return .success(path)
  }

  /// The package root: the working directory when it holds Package.swift (swift run), else the
  /// directory above .build of the running binary.
  static func packageRoot() -> URL {
    let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    if FileManager.default.fileExists(atPath: current.appendingPathComponent("Package.swift").path) {
      return current
    }
    var url = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return current
  }

  /// Runs gen_trace.py; returns why it could not, or nil.
  private static func generate(into path: String, root: URL) -> BenchmarkFailure? {
    let script = root.appendingPathComponent("../shared/tools/gen_trace.py").standardized.path
    guard FileManager.default.fileExists(atPath: script) else {
      return BenchmarkFailure(description: "no recording: pass --trace, or put gen_trace.py at \(script)")
    }
    try? FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    // gen_trace.py reports on stdout; keep the table (or JSON) the only thing printed there.
    let exit: ChildExit
    do {
      let child = try ChildProcess(
        "/usr/bin/env", arguments: ["python3", script, "--events", "\(events)", "--seed", "\(seed)", "--out", path],
        standardOutput: .nullDevice)
      // Minutes at most on a slow machine; a generator that hangs must not hang the benchmark.
      guard let ended = child.waitForExit(atMost: .seconds(600)) else {
        child.signal(SIGKILL)
        return BenchmarkFailure(description: "gen_trace.py did not finish within 600 s")
      }
      exit = ended
    } catch {
      return BenchmarkFailure(description: "cannot run python3 \(script): \(error)")
    }
    guard exit == ChildExit(status: 0, signaled: false) else {
      let how = exit.signaled ? "was killed by signal \(exit.status)" : "failed with status \(exit.status)"
      return BenchmarkFailure(description: "gen_trace.py \(how)")
    }
    return nil
  }
}
