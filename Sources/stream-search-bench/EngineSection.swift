// The "engine" section: the engine's targets, side by side in one run. (a) The binary replaying the
// 200,000-keystroke recording against `jq -c .` on the same file, alternating. (b) 100,000
// sessions, replayed and live, with the zero-latency catalog: peak RSS, and how many searches
// timed out live. (c) Live input piped as fast as possible: peak RSS at 1,000,000 and 3,000,000
// lines, to show it is flat (the reader cannot run ahead of the pipeline).
import Foundation

/// Measures the "engine" section.
struct EngineSection {
  let options: BenchOptions
  let stopwatch: Stopwatch

  func measure(into table: inout ResultTable) async throws {
    guard let binary = BinarySection.binary(for: "9 engine", into: &table) else { return }
    signal(SIGPIPE, SIG_IGN)
    try againstJQ(binary, into: &table)
    try sessions(binary, into: &table)
    try liveInput(binary, into: &table)
  }

  /// (a) The binary and jq on the same recording, run after run alternating, so that both see
  /// the same machine.
  private func againstJQ(_ binary: String, into table: inout ResultTable) throws {
    guard case .success(let path) = TraceFile.path(options: options) else { return }
    let jq = ["/usr/bin/jq", "/usr/local/bin/jq"].first { FileManager.default.isExecutableFile(atPath: $0) }
    var ours: [Double] = []
    var theirs: [Double] = []
    for run in 0...options.runs {
      let replay = try ChildRun(executable: binary, arguments: ["--replay", "--input", path, "--format", "jsonl"])
      let replayed = try replay.wait(clock: stopwatch.clock)
      var jqSeconds: Double?
      if let jq {
        jqSeconds = try ChildRun(executable: jq, arguments: ["-c", ".", path]).wait(clock: stopwatch.clock).seconds
      }
      guard run > 0 else { continue }
      ours.append(replayed.seconds)
      if let jqSeconds { theirs.append(jqSeconds) }
    }
    let keystrokes = Double(TraceFile.events)
    table.append(
      ResultRow(
        section: "9 engine", name: "(a) stream-search --replay, the 200k recording",
        unit: "keystrokes/s", sample: Sample(ours).inverted { keystrokes / $0 }, target: "≥ 1.5 × jq"))
    guard !theirs.isEmpty else {
      table.append(
        ResultRow(
          section: "9 engine", name: "(a) jq -c . on the same file", unit: "lines/s",
          sample: nil, note: "skipped: jq is not installed"))
      return
    }
    table.append(
      ResultRow(
        section: "9 engine", name: "(a) jq -c . on the same file", unit: "lines/s",
        sample: Sample(theirs).inverted { keystrokes / $0 }))
    let ratios = zip(ours, theirs).map { $1 / $0 }
    table.append(
      ResultRow(
        section: "9 engine", name: "(a) stream-search ÷ jq, run by run", unit: "×",
        sample: Sample(ratios), target: "≥ 1.5"))
  }

  /// (b) 100,000 sessions each typing one short word, replayed and live.
  private func sessions(_ binary: String, into table: inout ResultTable) throws {
    let path = TraceFile.packageRoot().appendingPathComponent(".bench/sessions-100k.jsonl").path
    if !FileManager.default.fileExists(atPath: path) { try Self.writeSessions(100_000, to: path) }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("engine-sessions-\(getpid()).jsonl").path
    defer { unlink(output) }
    for live in [false, true] {
      let arguments = (live ? [] : ["--replay"]) + ["--input", path, "--format", "jsonl"]
      let result = try ChildRun(executable: binary, arguments: arguments, outputPath: output).wait(
        clock: stopwatch.clock)
      // Counted a chunk at a time: holding the output would grow this process, and a child
      // spawned later reports at least this process's peak RSS as its own.
      let counts = try Self.count(["\"timedOut\"", "{\"type\":\"results\""], inFile: output)
      let (timedOut, results) = (counts[0], counts[1])
      table.append(
        ResultRow(
          section: "9 engine", name: "(b) 100,000 sessions, \(live ? "live" : "replayed"), peak RSS", unit: "MB",
          sample: Sample([result.peakResidentMegabytes]), target: "≤ 150",
          note: String(format: "one run, %.1f s; ", result.seconds)
            + "\(String(results).withThousandsSeparators) results, \(timedOut) timed out"
            + (live ? " (target: none)" : "")))
    }
  }

  /// (c) Generated lines piped into a live run as fast as the pipe takes them; flat means the
  /// 3,000,000-line peak is within 2 MB of the 1,000,000-line one.
  private func liveInput(_ binary: String, into table: inout ResultTable) throws {
    var peaks: [Double] = []
    for lines in [1_000_000, 3_000_000] {
      let child = try ChildRun(executable: binary, arguments: ["--format", "jsonl"], feedsInput: true)
      RecordingWriter.writeRecording(lines: lines, to: child.input)
      let result = try child.wait(clock: stopwatch.clock)
      let rate = String(Int(Double(lines) / result.seconds)).withThousandsSeparators
      table.append(
        ResultRow(
          section: "9 engine", name: "(c) live, \(String(lines).withThousandsSeparators) lines piped, peak RSS",
          unit: "MB", sample: Sample([result.peakResidentMegabytes]),
          note: String(format: "one run, %.1f s, ", result.seconds) + "\(rate) lines/s"))
      peaks.append(result.peakResidentMegabytes)
    }
    table.append(
      ResultRow(
        section: "9 engine", name: "(c) live, 3,000,000 lines minus 1,000,000, peak RSS", unit: "MB",
        sample: Sample([peaks[1] - peaks[0]]), target: "≤ 2 (flat)"))
  }

  /// How often each of `patterns` occurs in the file at `path`, read 1 MiB at a time.
  static func count(_ patterns: [String], inFile path: String) throws -> [Int] {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw BenchmarkFailure(description: "cannot read \(path)")
    }
    defer { try? handle.close() }
    let needles = patterns.map { Array($0.utf8) }
    let overlap = (needles.map(\.count).max() ?? 1) - 1
    var counts = Array(repeating: 0, count: needles.count)
    var carry: [UInt8] = []
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      let window = carry + chunk
      for (index, needle) in needles.enumerated() where window.count >= needle.count {
        // A match lying wholly in the carried tail was counted with the chunk before.
        var start = max(0, carry.count - needle.count + 1)
        while start + needle.count <= window.count {
          if window[start] == needle[0], window[start..<(start + needle.count)].elementsEqual(needle) {
            counts[index] += 1
          }
          start += 1
        }
      }
      carry = Array(window.suffix(overlap))
    }
    return counts
  }

  /// A recording of `count` sessions, each typing "t", "ta", "tay" 100 ms apart, a new session
  /// starting every millisecond.
  static func writeSessions(_ count: Int, to path: String) throws {
    var text = ""
    text.reserveCapacity(count * 150)
    var lines: [(Int, String)] = []
    lines.reserveCapacity(count * 3)
    for session in 0..<count {
      for (step, term) in ["t", "ta", "tay"].enumerated() {
        lines.append((session + step * 100, "\(session)\t\(term)"))
      }
    }
    lines.sort { $0.0 < $1.0 }
    for (instant, entry) in lines {
      let parts = entry.split(separator: "\t")
      text += "{\"at_ms\":\(instant),\"session\":\"s\(parts[0])\",\"term\":\"\(parts[1])\"}\n"
    }
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }
}
