// The "catalog" and "long" sections, through the binary: the CPU a keystroke costs when every
// keystroke is searched. A set of queries (the project's query set, or the long queries) is typed
// letter by letter into `stream-search --replay` (three categories, 25 items each, every event
// encoded, no cache), each prefix a second after the last so that the debounce lets every one
// through; the CPU of a one-line replay (start-up) is subtracted and the rest divided by the
// searches the run reports.
import CatalogQueries
import Foundation

/// Measures the CPU per typed prefix of the release binary.
struct TypedPrefixes {
  let options: BenchOptions
  let stopwatch: Stopwatch

  static let arguments = ["--replay", "--format", "jsonl", "--limit", "25", "--cache-size", "0"]

  /// The query set's row.
  func measure(into table: inout ResultTable) throws {
    try measure(
      Self.terms(), section: "4 catalog", name: "CPU per typed prefix through the binary, start-up subtracted",
      describing: "query-set terms", into: &table)
  }

  /// A row for every prefix of `terms` (`describing` says what they are) in `section`.
  func measure(
    _ terms: [String], section: String, name: String, describing: String, into table: inout ResultTable
  ) throws {
    guard let binary = BinarySection.binary(for: section, into: &table) else { return }
    let recording = Self.recording(of: terms)
    let oneLine = Self.recording(of: ["taylor swift"])
    var perPrefix: [Double] = []
    var searches = 0
    for run in 0...options.runs {
      // The first run warms up and counts the searches in the output.
      let output =
        run == 0 ? FileManager.default.temporaryDirectory.appendingPathComponent("typed-prefixes.jsonl").path : nil
      let full = try replay(binary, recording, outputPath: output)
      let startUp = try replay(binary, oneLine, outputPath: nil)
      if let output {
        searches = try Self.searchCount(in: output)
        try? FileManager.default.removeItem(atPath: output)
        guard searches > 0 else { throw BenchmarkFailure(description: "the typed prefixes gave no search") }
        continue
      }
      perPrefix.append((full.cpuSeconds - startUp.cpuSeconds) / Double(searches) * 1e6)
    }
    let prefixes = String(searches).withThousandsSeparators
    table.append(
      ResultRow(
        section: section, name: name, unit: "µs", sample: Sample(perPrefix), target: "≤ 40",
        note: "\(prefixes) prefixes of the \(terms.count) \(describing), `\(Self.arguments.joined(separator: " "))`"))
  }

  /// The query set's distinct terms, in order.
  static func terms() -> [String] {
    var seen: Set<String> = []
    return CatalogQuerySet.queries.map(\.term).filter { seen.insert($0).inserted }
  }

  /// Every prefix of every term a second apart, the field cleared after each term.
  static func recording(of terms: [String]) -> [UInt8] {
    var lines = ""
    var atMilliseconds = 0
    for term in terms {
      let characters = Array(term)
      for length in 1...characters.count {
        atMilliseconds += 1_000
        lines += line(at: atMilliseconds, String(characters[0..<length]))
      }
      atMilliseconds += 1_000
      lines += line(at: atMilliseconds, "")
    }
    return Array(lines.utf8)
  }

  private static func line(at milliseconds: Int, _ term: String) -> String {
    let escaped = term.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    return "{\"at_ms\":\(milliseconds),\"term\":\"\(escaped)\"}\n"
  }

  /// Runs the binary on `recording` written into its stdin.
  private func replay(_ binary: String, _ recording: [UInt8], outputPath: String?) throws -> ChildRun.Result {
    let child = try ChildRun(executable: binary, arguments: Self.arguments, feedsInput: true, outputPath: outputPath)
    recording.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(child.input, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
        guard written > 0 || errno == EINTR else { break }
        offset += max(0, written)
      }
    }
    close(child.input)
    return try child.wait(clock: stopwatch.clock)
  }

  private static func searchCount(in path: String) throws -> Int {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"search\"") }.count
  }
}
