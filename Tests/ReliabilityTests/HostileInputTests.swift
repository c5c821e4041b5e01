// Bad input fuzz through the built binary: hostile lines mixed with good ones. No crash, exit 0,
// exactly one input_error per bad line with its number, and every good line still processed.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct HostileInputTests {
  static let maxLineBytes = 65_536

  @Test(arguments: [UInt64(11), 12, 13])
  func replayGivesOneInputErrorPerBadLineAndSearchesEveryGoodOne(seed: UInt64) async throws {
    let input = HostileInput.generate(seed: seed, count: 300, maxLineBytes: Self.maxLineBytes, plainText: false)
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--replay", "--format", "jsonl", "--max-line-bytes", "\(Self.maxLineBytes)"],
      input: input.data)
    #expect(result.status == 0 && !result.terminatedBySignal)
    #expect(result.stderr == "")
    let events = try toolEvents(result.stdout)
    let errors = events.filter { $0.type == "input_error" }
    #expect(errors.map { $0.line } == input.badLines)
    #expect(reasonMismatches(errors, input).isEmpty)
    #expect(events.filter { $0.type == "search" }.map { $0.term } == input.goodTerms)
    #expect(events.filter { $0.type == "results" }.map { $0.term } == input.goodTerms)
    let summary = try #require(events.last)
    #expect(summary.counts["input_lines"] == input.lineCount)
    #expect(summary.counts["input_errors"] == input.badLines.count)
  }

  @Test(arguments: [UInt64(21), 22])
  func liveInputGivesOneInputErrorPerBadLineAndReadsEveryGoodOne(seed: UInt64) async throws {
    let input = HostileInput.generate(seed: seed, count: 300, maxLineBytes: Self.maxLineBytes, plainText: true)
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--format", "jsonl", "--max-line-bytes", "\(Self.maxLineBytes)"],
      input: input.data)
    #expect(result.status == 0 && !result.terminatedBySignal)
    #expect(result.stderr == "")
    let events = try toolEvents(result.stdout)
    let errors = events.filter { $0.type == "input_error" }
    #expect(errors.map { $0.line } == input.badLines)
    #expect(reasonMismatches(errors, input).isEmpty)
    let summary = try #require(events.last)
    #expect(summary.counts["input_lines"] == input.lineCount)
    #expect(summary.counts["input_errors"] == input.badLines.count)
    // Live lines arrive faster than the debounce, so only the last good term settles.
    #expect(events.filter { $0.type == "search" }.map { $0.term } == [input.goodTerms.last])
  }
}

/// The input errors whose reason does not start as the generator expects: "line n: got …".
private func reasonMismatches(_ errors: [ToolEvent], _ input: HostileInput) -> [String] {
  zip(errors, input.badReasons).compactMap { error, expected in
    (error.reason ?? "").hasPrefix(expected) ? nil : "line \(error.line ?? 0): got \(error.reason ?? "nil")"
  }
}
