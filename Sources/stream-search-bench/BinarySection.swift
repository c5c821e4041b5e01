// The "binary" section: the stream-search release binary end to end. (a) `--replay --input` the
// 200,000-keystroke recording with output to /dev/null: wall time, keystrokes/s, peak RSS.
// (b) a long recording generated here and written into the binary's stdin through a pipe: peak
// RSS at 1,000,000 lines, and with --full at 10,000,000 lines, to show it does not grow. (c) one
// line through a pipe: start-up with the built-in catalog, wall and peak RSS.
import Foundation
import LineIO
import Streams

/// Measures the "binary" section.
struct BinarySection {
  let options: BenchOptions
  let stopwatch: Stopwatch

  /// The release binary; `swift build -c release --product stream-search` makes it.
  static var binaryPath: String {
    TraceFile.packageRoot().appendingPathComponent(".build/release/stream-search").path
  }

  /// The release binary, or nil after adding a row to `table` that says how to build it.
  static func binary(for section: String, into table: inout ResultTable) -> String? {
    guard FileManager.default.isExecutableFile(atPath: binaryPath) else {
      table.append(
        ResultRow(
          section: section, name: "stream-search", unit: "", sample: nil,
          note: "skipped: no \(binaryPath); build it with `swift build -c release --product stream-search`"))
      return nil
    }
    return binaryPath
  }

  func measure(into table: inout ResultTable) async throws {
    guard let binary = Self.binary(for: "3 binary", into: &table) else { return }
    // A child that dies early must show up as a failed write, not kill the benchmark.
    signal(SIGPIPE, SIG_IGN)
    try replayRecording(binary, into: &table)
    try await pipedRecordings(binary, into: &table)
    try oneLineReplay(binary, into: &table)
  }

  /// (c) one line from a pipe: what a short run costs, most of it reading and indexing the
  /// built-in catalog.
  private func oneLineReplay(_ binary: String, into table: inout ResultTable) throws {
    var milliseconds: [Double] = []
    var megabytes: [Double] = []
    for run in 0...options.runs {
      let child = try ChildRun(executable: binary, arguments: ["--replay", "--format", "jsonl"], feedsInput: true)
      RecordingWriter.writeRecording(lines: 1, to: child.input)
      let result = try child.wait(clock: stopwatch.clock)
      guard run > 0 else { continue }  // The first run warms up (page cache).
      milliseconds.append(result.seconds * 1_000)
      megabytes.append(result.peakResidentMegabytes)
    }
    table.append(
      ResultRow(
        section: "3 binary", name: "(c) one line through a pipe into --replay, wall", unit: "ms",
        sample: Sample(milliseconds), target: "≤ 100", note: "start-up with the built-in catalog"))
    table.append(
      ResultRow(
        section: "3 binary", name: "(c) the same, peak RSS", unit: "MB",
        sample: Sample(megabytes), target: "≤ 45"))
  }

  /// (a) the recording from a file, output to /dev/null.
  private func replayRecording(_ binary: String, into table: inout ResultTable) throws {
    let path: String
    switch TraceFile.path(options: options) {
    case .success(let found): path = found
    case .failure(let failure):
      table.append(
        ResultRow(
          section: "3 binary", name: "stream-search --replay", unit: "", sample: nil,
          note: "skipped: \(failure.description)"))
      return
    }
    let arguments = ["--replay", "--input", path, "--format", "jsonl"]
    var seconds: [Double] = []
    var megabytes: [Double] = []
    for run in 0...options.runs {
      let child = try ChildRun(executable: binary, arguments: arguments)
      let result = try child.wait(clock: stopwatch.clock)
      guard run > 0 else { continue }  // The first run warms up (page cache, catalog pages).
      seconds.append(result.seconds)
      megabytes.append(result.peakResidentMegabytes)
    }
    let command = "stream-search --replay --input <recording> --format jsonl > /dev/null"
    let keystrokes = Double(TraceFile.events)
    table.append(
      ResultRow(
        section: "3 binary", name: "(a) \(command), wall", unit: "s",
        sample: Sample(seconds), note: "200,000 keystrokes; defaults: catalog, latency 0, cache on"))
    table.append(
      ResultRow(
        section: "3 binary", name: "(a) the same, keystrokes per second", unit: "keystrokes/s",
        sample: Sample(seconds).inverted { keystrokes / $0 }, target: "≥ 500,000",
        anchor: "jq -c . ≈ 570,000 lines/s"))
    table.append(
      ResultRow(
        section: "3 binary", name: "(a) the same, peak RSS", unit: "MB",
        sample: Sample(megabytes)))
  }

  /// (b) 1,000,000 (and with --full 10,000,000) generated lines through a pipe into --replay,
  /// after an empty input for the RSS the binary has before reading anything.
  private func pipedRecordings(_ binary: String, into table: inout ResultTable) async throws {
    let lengths = options.fullBinaryPipe ? [0, 1_000_000, 10_000_000] : [0, 1_000_000]
    for lines in lengths {
      // One run each: 10,000,000 lines take minutes, and peak RSS hardly varies between runs.
      let child = try ChildRun(executable: binary, arguments: ["--replay", "--format", "jsonl"], feedsInput: true)
      RecordingWriter.writeRecording(lines: lines, to: child.input)
      let result = try child.wait(clock: stopwatch.clock)
      let rate = String(Int(Double(lines) / result.seconds)).withThousandsSeparators
      table.append(
        ResultRow(
          section: "3 binary", name: "(b) peak RSS, \(String(lines).withThousandsSeparators) lines through a pipe",
          unit: "MB", sample: Sample([result.peakResidentMegabytes]), target: lines == 0 ? "" : "≤ 32, flat",
          note: lines == 0
            ? "an empty input: what the binary holds before reading a line"
            : String(format: "one run, %.1f s, ", result.seconds) + "\(rate) lines/s"
              + (options.fullBinaryPipe ? "" : "; 10,000,000 lines with --full")))
    }
  }
}

/// Writes a generated recording into a pipe: a few words typed letter by letter, again and
/// again, with at_ms always increasing, built in chunks so no recording is held in memory.
enum RecordingWriter {
  static let words = ["taylor swift", "beyonce", "the matrix", "serial", "radiohead", "inception"]

  /// Writes `lines` lines to `descriptor` and closes it; stops early if the reader goes away.
  static func writeRecording(lines: Int, to descriptor: Int32) {
    defer { close(descriptor) }
    let output = FileDescriptorWriter(fileDescriptor: descriptor)
    var chunk: [UInt8] = []
    chunk.reserveCapacity(1 << 17)
    var atMilliseconds = 0
    var written = 0
    while written < lines {
      for word in words {
        let letters = Array(word)
        for length in 1...letters.count where written < lines {
          atMilliseconds += length == 1 ? 1_500 : 120  // a pause between words, typing within one
          let term = String(letters[0..<length])
          chunk.append(contentsOf: "{\"at_ms\": \(atMilliseconds), \"term\": \"\(term)\"}\n".utf8)
          written += 1
        }
        if chunk.count >= 1 << 16 || written == lines {
          guard (try? output.write(chunk)) != nil else { return }
          chunk.removeAll(keepingCapacity: true)
        }
        if written == lines { break }
      }
    }
  }
}
