// Bad input fuzz through the built binary: hostile lines mixed with good ones. No crash, exit 0,
// exactly one input_error per bad line with its number, and every good line still processed.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct HostileInputTests {
  static let maxLineBytes = 65_536

  @Test(arguments: [UInt64(11), 12, 13])
  func replayGivesOneInputErrorPerBadLineAndSearchesEveryGoodOne(seed: UInt64) async throws {
    let input = HostileInput.generate(seed: seed, count: 300, maxLineBytes: Self.maxLineBytes, plainText: false)
    let events = try await Self.runReportingEachBadLine(input, arguments: ["--replay"])
    #expect(events.filter { $0.type == "search" }.map { $0.term } == input.goodTerms)
    #expect(events.filter { $0.type == "results" }.map { $0.term } == input.goodTerms)
  }

  @Test(arguments: [UInt64(21), 22])
  func liveInputGivesOneInputErrorPerBadLineAndReadsEveryGoodOne(seed: UInt64) async throws {
    let input = HostileInput.generate(seed: seed, count: 300, maxLineBytes: Self.maxLineBytes, plainText: true)
    let events = try await Self.runReportingEachBadLine(input, arguments: [])
    // Live lines arrive faster than the debounce, so only the last good term settles.
    #expect(events.filter { $0.type == "search" }.map { $0.term } == [input.goodTerms.last])
  }

  /// Runs the tool on `input` with `arguments` and checks what both modes share: it exits 0 with
  /// nothing on stderr, gives one input_error per bad line with its number and reason, and the
  /// summary counts every line and every bad one. Returns the events for the mode's own checks.
  static func runReportingEachBadLine(
    _ input: HostileInput, arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [ToolEvent] {
    let result = try await Subprocess.run(
      try toolBinary(), arguments: arguments + ["--format", "jsonl", "--max-line-bytes", "\(maxLineBytes)"],
      input: input.data)
    #expect(result.status == 0 && !result.terminatedBySignal, sourceLocation: sourceLocation)
    #expect(result.stderr == "", sourceLocation: sourceLocation)
    let events = try toolEvents(result.stdout)
    let errors = events.filter { $0.type == "input_error" }
    #expect(errors.map { $0.line } == input.badLines, sourceLocation: sourceLocation)
    #expect(reasonMismatches(errors, input).isEmpty, sourceLocation: sourceLocation)
    let summary = try #require(events.last, sourceLocation: sourceLocation)
    #expect(summary.counts["input_lines"] == input.lineCount, sourceLocation: sourceLocation)
    #expect(summary.counts["input_errors"] == input.badLines.count, sourceLocation: sourceLocation)
    return events
  }
}

/// The input errors whose reason does not start as the generator expects: "line n: got …".
private func reasonMismatches(_ errors: [ToolEvent], _ input: HostileInput) -> [String] {
  zip(errors, input.badReasons).compactMap { error, expected in
    (error.reason ?? "").hasPrefix(expected) ? nil : "line \(error.line ?? 0): got \(error.reason ?? "nil")"
  }
}
