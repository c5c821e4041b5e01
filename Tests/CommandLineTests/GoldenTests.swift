// The whole help text and the error reports, checked word for word against the files in
// Tests/Golden/CommandLine/. They live outside the test target's folder because SwiftPM warns
// about files in a target that the manifest does not declare.
//
// After an intended change of wording, regenerate and review the diff:
//   swift build && .build/debug/stream-search --help > Tests/Golden/CommandLine/help.txt
import Foundation
import Testing

@testable import stream_search

/// Reads the golden files in Tests/Golden/CommandLine/, found from this source file's path.
enum Golden {
  /// The directory holding the golden files.
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Golden/CommandLine")

  /// The text of the golden file `name`.
  static func text(_ name: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
  }

  /// One bad invocation and the report it must give on standard error.
  struct ErrorCase: Sendable, CustomTestStringConvertible {
    /// The arguments after the program name.
    let arguments: [String]
    /// The expected standard error, three lines.
    let report: String

    /// The arguments as typed, e.g. `--limit abc`, to name the case in test results.
    var testDescription: String { arguments.joined(separator: " ") }
  }

  /// The cases in `errors.txt`: blocks of `$ stream-search ARGS` then the report, separated
  /// by blank lines. Arguments are split at spaces, so none of them may contain one.
  static func errorCases() throws -> [ErrorCase] {
    var cases: [ErrorCase] = []
    for block in try text("errors.txt").components(separatedBy: "\n\n") where !block.isEmpty {
      var lines = block.split(separator: "\n", omittingEmptySubsequences: false)
      let command = lines.removeFirst()
      guard command.hasPrefix("$ stream-search") else {
        Issue.record("A block in errors.txt must start with '$ stream-search', not '\(command)'")
        continue
      }
      let arguments = command.split(separator: " ").dropFirst(2).map(String.init)
      cases.append(ErrorCase(arguments: arguments, report: lines.joined(separator: "\n") + "\n"))
    }
    return cases
  }
}

@Suite struct GoldenTests {
  @Test func helpMatchesTheGoldenFile() throws {
    #expect(HelpText.render(.search) == (try Golden.text("help.txt")))
  }

  @Test func recordHelpMatchesTheGoldenFile() throws {
    #expect(HelpText.render(.record) == (try Golden.text("record-help.txt")))
  }

  @Test(arguments: [CommandLineParser.Command.publish, .worker, .events])
  func redisCommandHelpMatchesItsGoldenFile(command: CommandLineParser.Command) throws {
    let help = HelpText.render(command)
    #expect(help == (try Golden.text("\(command.rawValue)-help.txt")))
    #expect(help.split(separator: "\n").allSatisfy { $0.count <= HelpText.width })
    for option in command.groups.flatMap(\.options) {
      #expect(help.contains("  \(option.label) "), "\(option.name) is not in the help of \(command.name)")
    }
  }

  @Test func everyGoldenErrorIsWhatTheParserReports() throws {
    let cases = try Golden.errorCases()
    #expect(cases.count >= 10)
    for golden in cases {
      do {
        let invocation = try CommandLineParser.parse(golden.arguments, stdoutIsTerminal: false)
        Issue.record("Expected \(golden.arguments) to be refused, got \(invocation)")
      } catch {
        #expect(error.text == golden.report, "stream-search \(golden.testDescription)")
      }
    }
  }

  @Test func helpFitsEightyColumnsAndEndsItsOptionsWithHelp() throws {
    let help = HelpText.render(.search)
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { $0.count <= HelpText.width })
    let options = lines.filter { $0.hasPrefix("  -") }
    #expect(options.last?.hasPrefix("  -h, --help ") == true)
    for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:", "EXIT STATUS:"] {
      #expect(lines.contains { $0.hasPrefix(section) }, "missing \(section)")
    }
    // Every row of every table, wrapped lines too, has its text start in one column.
    let helpLine = try #require(lines.first { $0.hasPrefix("  -h, --help") })
    let column = try #require(helpLine.range(of: "Show")).lowerBound.utf16Offset(in: helpLine)
    let tableLines = lines.drop { !$0.hasSuffix("OPTIONS:") }.filter { $0.hasPrefix("  ") }
    #expect(tableLines.count > 30)
    for line in tableLines {
      let characters = Array(line)
      #expect(characters.count > column && characters[column] != " " && characters[column - 1] == " ", "\(line)")
    }
  }

  @Test func helpDocumentsEveryOptionTheParserAccepts() {
    let help = HelpText.render(.search)
    for option in CommandLineParser.Command.search.groups.flatMap(\.options) {
      #expect(help.contains("  \(option.label) "), "\(option.name) is not in the help")
    }
  }
}
