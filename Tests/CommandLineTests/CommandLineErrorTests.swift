// Bad command lines: each is refused with the right problem, and reported in exactly three lines.
import Testing

@testable import stream_search

@Suite struct CommandLineErrorTests {
  /// Parses `arguments` expecting a usage error and returns it, failing the test otherwise.
  private func usageError(_ arguments: [String]) -> UsageError? {
    do {
      let invocation = try CommandLineParser.parse(arguments, stdoutIsTerminal: false)
      Issue.record("Expected \(arguments) to be refused, got \(invocation)")
      return nil
    } catch {
      return error
    }
  }

  /// "Invalid value" for `option`.
  private static func invalid(_ value: String, _ option: String, _ reason: String) -> CommandLineError {
    .invalidValue(value, option: option, reason: reason)
  }

  private static let limitRange = "expected a whole number from 1 to 200"
  private static let cacheSizeRange = "expected a whole number from 0 to 10000000"
  private static let duration = "expected a duration such as 300ms, 1.5s, 2m or 1h"
  private static let positive = "expected a duration greater than 0"
  private static let source = "expected catalog, itunes, or an http(s) URL with a host"
  private static let categories =
    "expected a comma-separated list of "
    + "music, movies, podcasts, musicVideo, audiobook, shortFilm, tvShow, software, ebook"
  private static let rate = "expected a rate such as 20/min, 5/s, 100/h or 20/60s, or none"
  private static let country = "expected a two-letter country code, e.g. US"

  /// Bad command lines and the problem each must be refused with.
  static let refusals: [([String], CommandLineError)] = [
    (["--limit", "abc"], invalid("abc", "--limit", limitRange)),
    (["--limit", "0"], invalid("0", "--limit", limitRange)),
    (["--limit", "201"], invalid("201", "--limit", limitRange)),
    (["--limit", "1.5"], invalid("1.5", "--limit", limitRange)),
    (["--limit", ""], invalid("", "--limit", limitRange)),
    (["--min-length", "0"], invalid("0", "--min-length", "expected a whole number of at least 1")),
    (["--max-line-bytes", "0"], invalid("0", "--max-line-bytes", "expected a whole number of at least 1")),
    (["--cache-size", "-1"], invalid("-1", "--cache-size", cacheSizeRange)),
    (["--cache-size", "1\(Int.max)"], invalid("1\(Int.max)", "--cache-size", cacheSizeRange)),
    (["--debounce", "300"], invalid("300", "--debounce", "add a unit, e.g. 300ms")),
    (["--latency", "5"], invalid("5", "--latency", "add a unit, e.g. 5ms")),
    (["--timeout", "10"], invalid("10", "--timeout", "add a unit, e.g. 10s")),
    (["--cache-ttl", "10"], invalid("10", "--cache-ttl", "add a unit, e.g. 10m")),
    (["--session-idle", "10"], invalid("10", "--session-idle", "add a unit, e.g. 10m")),
    (["--debounce", "fast"], invalid("fast", "--debounce", duration)),
    (["--debounce", "-1s"], invalid("-1s", "--debounce", duration)),
    (["--debounce", "999999999h"], invalid("999999999h", "--debounce", "expected a duration under 292 years")),
    (["--timeout", "0"], invalid("0", "--timeout", positive)),
    (["--cache-ttl", "0s"], invalid("0s", "--cache-ttl", positive)),
    (["--session-idle", "0"], invalid("0", "--session-idle", positive)),
    (["--source", "ftp://example.com"], invalid("ftp://example.com", "--source", source)),
    (["--source", "http://"], invalid("http://", "--source", source)),
    (["--source", "spotify"], invalid("spotify", "--source", source)),
    (
      ["--categories", "music,books"],
      invalid("music,books", "--categories", "unknown category 'books'; \(categories)")
    ),
    (
      ["--categories", "music,,movies"], invalid("music,,movies", "--categories", "empty category name; \(categories)")
    ),
    (["--country", "USA"], invalid("USA", "--country", country)),
    (["--country", "1A"], invalid("1A", "--country", country)),
    (["--country", "ÜS"], invalid("ÜS", "--country", country)),
    (["--rate-limit", "20"], invalid("20", "--rate-limit", rate)),
    (["--format", "json"], invalid("json", "--format", "expected jsonl or pretty")),
    (["--follow=yes", "--input", "x"], .unexpectedValue("yes", option: "--follow")),
    (["--help=all"], .unexpectedValue("all", option: "--help")),
    (["--version="], .unexpectedValue("", option: "--version")),
    (["--limit"], .missingValue(option: "--limit")),
    (["--limit", "--debounce", "1s"], .missingValue(option: "--limit")),
    (["--input", "-v"], .missingValue(option: "--input")),
    (["--debounc", "300ms"], .unknownOption("--debounc", suggestion: "--debounce")),
    (["--debounc=300ms"], .unknownOption("--debounc", suggestion: "--debounce")),
    (["-debounce"], .unknownOption("-debounce", suggestion: "--debounce")),
    (["--catgories", "music"], .unknownOption("--catgories", suggestion: "--categories")),
    (["--verison"], .unknownOption("--verison", suggestion: "--version")),
    (["--colour"], .unknownOption("--colour", suggestion: nil)),
    (["-x"], .unknownOption("-x", suggestion: nil)),
    (["keys.txt"], .pathAsArgument("keys.txt")),
    (["./keys"], .pathAsArgument("./keys")),
    (["taylor", "--replay"], .termAsArgument("taylor")),
    (["recrod"], .unknownCommand("recrod", suggestion: "record")),
    (["evnets", "--follow"], .unknownCommand("evnets", suggestion: "events")),
    (["hlep"], .unknownCommand("hlep", suggestion: "help")),
    (["--record", "x", "--lines"], .recordWithoutScreen),
    (["--record", "x", "--replay"], .recordWithoutScreen),
    (["--replay", "record"], .termAsArgument("record")),
    (["--input", "k", "queen"], .termAsArgument("queen")),
    (["queen", "--each"], .conflictingOptions("--each", "queen")),
    (["--each", "--replay"], .conflictingOptions("--each", "--replay")),
    (["search"], .missingOption("TERM or --each")),
    (["--verbose", "--quiet"], .conflictingOptions("--verbose", "--quiet")),
    (["--follow"], .missingRequirement(option: "--follow", required: "--input PATH")),
    (["--follow", "--input", "-"], .missingRequirement(option: "--follow", required: "--input PATH")),
  ]

  @Test(arguments: refusals)
  func refusesWithTheProblem(arguments: [String], expected: CommandLineError) {
    #expect(usageError(arguments) == UsageError(error: expected, command: .search))
  }

  @Test func theFirstBadOptionIsTheOneReported() {
    #expect(
      usageError(["--limit", "0", "--debounce", "300"])?.error
        == .invalidValue(
          "0", option: "--limit", reason: "expected a whole number from 1 to 200"
        ))
  }

  @Test func reportIsExactlyThreeLines() throws {
    let error = try #require(usageError(["--limit", "abc"]))
    #expect(
      error.text == """
        Error: Invalid value 'abc' for '--limit': expected a whole number from 1 to 200.
        Usage: stream-search [--replay] [--input PATH] [options]
        See 'stream-search --help' for more information.

        """)
  }

  @Test func controlCharactersInTheUsersWordsCannotBreakTheReportIntoMoreLines() throws {
    let error = try #require(usageError(["--limit", "1\n2\u{1B}[31m"]))
    #expect(error.text.split(separator: "\n", omittingEmptySubsequences: false).count == 4)
    #expect(error.error.summary == "Error: Invalid value '1\\n2\\u{1B}[31m' for '--limit': \(Self.limitRange).")
  }

  @Test func recordErrorsPointToRecordsUsageAndHelp() throws {
    let error = try #require(usageError(["record", "--inptu", "x"]))
    #expect(
      error.text == """
        Error: Unknown option '--inptu'. Did you mean '--input'?
        Usage: stream-search record [--input PATH] [--follow]
        See 'stream-search record --help' for more information.

        """)
  }

  @Test(arguments: [
    ("--debounce", "--debounce", 0), ("--debounc", "--debounce", 1), ("--debounse", "--debounce", 1),
    ("--limt", "--limit", 1), ("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3),
  ])
  func editDistanceCountsSingleCharacterEdits(source: String, target: String, expected: Int) {
    #expect(Suggestion.editDistance(source, target) == expected)
  }
}
