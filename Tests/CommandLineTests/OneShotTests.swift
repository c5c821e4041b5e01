// The one-shot search for scripts: terms as arguments, or every input line with --each, each
// answered once with its `results` object, in input order, through the built binary.
import Foundation
import TestSupport
import Testing

@testable import stream_search

@Suite struct OneShotTests {
  @Test(arguments: [
    (["taylor"], ["taylor"]), (["search", "taylor", "swift"], ["taylor", "swift"]),
    (["AC/DC", "--limit", "1"], ["AC/DC"]), (["Mr. Brightside"], ["Mr. Brightside"]),
    (["search", "record"], ["record"]), (["--", "--each", "-x"], ["--each", "-x"]),
    (["search", "--format", "jsonl", "--", "--help-me"], ["--help-me"]),
  ])
  func termsGivenAsArgumentsAreSearchedOnce(arguments: [String], terms: [String]) throws {
    let options = try searchOptions(arguments)
    #expect(options.oneShot == .terms(terms))
    #expect(!options.interactive && !options.readsInput)
  }

  @Test func eachReadsTheInputAndNeverTheScreen() throws {
    let options = try CommandLineParser.parse(["--each"], stdoutIsTerminal: false, stdinIsTerminal: true)
    guard case .search(let options) = options else { throw CancellationError() }
    #expect(options.oneShot == .eachLine && !options.interactive && options.readsInput)
  }

  @Test func aPipeOfTermsIsAnsweredEveryLineInInputOrder() async throws {
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--each", "--categories", "music", "--limit", "1"],
      input: Data("queen\nabba\n\n{\"term\":\"adele\"}\nnot json {\n".utf8))
    #expect(result.status == 0 && result.stderr == "")
    let objects = result.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
      .map { $0 as? [String: Any] }
    #expect(objects.map { $0?["type"] as? String } == ["results", "results", "results", "results"])
    #expect(objects.map { $0?["term"] as? String } == ["queen", "abba", "adele", "not json {"])
  }

  @Test func termsAsArgumentsAreAnsweredInOrderWithNothingElse() async throws {
    let terms = ["queen", "bohemian rapsody", "abba", "queen", "  ", "zzzzqqqq"]
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["search", "--categories", "music", "--limit", "1", "--"] + terms)
    #expect(result.status == 0 && result.stderr == "")
    let lines = result.stdout.split(separator: "\n")
    let answered = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    #expect(answered.count == lines.count)
    #expect(answered.map { $0["type"] as? String } == Array(repeating: "results", count: 5))
    #expect(answered.map { $0["term"] as? String } == ["queen", "bohemian rapsody", "abba", "queen", "zzzzqqqq"])
    #expect(result.stdout.contains("Bohemian Rhapsody"))
  }

  @Test func aClosedStandardInputDoesNotStopTermsGivenAsArguments() async throws {
    // Terms given as arguments read nothing: an empty input is no reason to stop.
    let result = try await Subprocess.run(try toolBinary(), arguments: ["abba", "--stats", "--limit", "1"])
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("1 searches, 1 results"))
  }
}
