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

  @Test(arguments: [
    (["--limit", "abc"], CommandLineError.invalidValue("abc", option: "--limit", reason: "expected a whole number from 1 to 200")),
    (["--limit", "0"], .invalidValue("0", option: "--limit", reason: "expected a whole number from 1 to 200")),
    (["--limit", "201"], .invalidValue("201", option: "--limit", reason: "expected a whole number from 1 to 200")),
    (["--limit", "1.5"], .invalidValue("1.5", option: "--limit", reason: "expected a whole number from 1 to 200")),
    (["--limit", ""], .invalidValue("", option: "--limit", reason: "expected a whole number from 1 to 200")),
    (["--min-length", "0"], .invalidValue("0", option: "--min-length", reason: "expected a whole number of at least 1")),
    (["--max-line-bytes", "0"], .invalidValue("0", option: "--max-line-bytes", reason: "expected a whole number of at least 1")),
    (["--cache-size", "-1"], .invalidValue("-1", option: "--cache-size", reason: "expected a whole number of at least 0")),
    (["--cache-size", "99999999999999999999"], .invalidValue("99999999999999999999", option: "--cache-size", reason: "expected a whole number of at least 0")),
    (["--debounce", "300"], .invalidValue("300", option: "--debounce", reason: "add a unit, e.g. 300ms")),
    (["--latency", "5"], .invalidValue("5", option: "--latency", reason: "add a unit, e.g. 5ms")),
    (["--timeout", "10"], .invalidValue("10", option: "--timeout", reason: "add a unit, e.g. 10s")),
    (["--cache-ttl", "10"], .invalidValue("10", option: "--cache-ttl", reason: "add a unit, e.g. 10m")),
    (["--session-idle", "10"], .invalidValue("10", option: "--session-idle", reason: "add a unit, e.g. 10m")),
    (["--debounce", "fast"], .invalidValue("fast", option: "--debounce", reason: "expected a duration such as 300ms, 1.5s, 2m or 1h")),
    (["--debounce", "-1s"], .invalidValue("-1s", option: "--debounce", reason: "expected a duration such as 300ms, 1.5s, 2m or 1h")),
    (["--debounce", "999999999h"], .invalidValue("999999999h", option: "--debounce", reason: "expected a duration under 292 years")),
    (["--timeout", "0"], .invalidValue("0", option: "--timeout", reason: "expected a duration greater than 0")),
    (["--cache-ttl", "0s"], .invalidValue("0s", option: "--cache-ttl", reason: "expected a duration greater than 0")),
    (["--session-idle", "0"], .invalidValue("0", option: "--session-idle", reason: "expected a duration greater than 0")),
    (["--source", "ftp://example.com"], .invalidValue("ftp://example.com", option: "--source", reason: "expected catalog, itunes, or an http(s) URL with a host")),
    (["--source", "http://"], .invalidValue("http://", option: "--source", reason: "expected catalog, itunes, or an http(s) URL with a host")),
    (["--source", "spotify"], .invalidValue("spotify", option: "--source", reason: "expected catalog, itunes, or an http(s) URL with a host")),
    (["--categories", "music,books"], .invalidValue("music,books", option: "--categories", reason: "unknown category 'books'; expected a comma-separated list of music, movies, podcasts, musicVideo, audiobook, shortFilm, tvShow, software, ebook")),
    (["--categories", "music,,movies"], .invalidValue("music,,movies", option: "--categories", reason: "empty category name; expected a comma-separated list of music, movies, podcasts, musicVideo, audiobook, shortFilm, tvShow, software, ebook")),
    (["--country", "USA"], .invalidValue("USA", option: "--country", reason: "expected a two-letter country code, e.g. US")),
    (["--country", "1A"], .invalidValue("1A", option: "--country", reason: "expected a two-letter country code, e.g. US")),
    (["--country", "ÜS"], .invalidValue("ÜS", option: "--country", reason: "expected a two-letter country code, e.g. US")),
    (["--rate-limit", "20"], .invalidValue("20", option: "--rate-limit", reason: "expected a rate such as 20/min, 5/s, 100/h or 20/60s, or none")),
    (["--format", "json"], .invalidValue("json", option: "--format", reason: "expected jsonl or pretty")),
    (["--follow=yes", "--input", "x"], .unexpectedValue("yes", option: "--follow")),
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
    (["keys.txt"], .unexpectedArgument("keys.txt")),
    (["--replay", "record"], .unexpectedArgument("record")),
    (["--", "keys.txt"], .unexpectedArgument("keys.txt")),
    (["--verbose", "--quiet"], .conflictingOptions("--verbose", "--quiet")),
    (["--follow"], .missingRequirement(option: "--follow", required: "--input PATH")),
    (["--follow", "--input", "-"], .missingRequirement(option: "--follow", required: "--input PATH")),
  ] as [([String], CommandLineError)])
  func refusesWithTheProblem(arguments: [String], expected: CommandLineError) {
    #expect(usageError(arguments) == UsageError(error: expected, command: .search))
  }

  @Test func theFirstBadOptionIsTheOneReported() {
    #expect(usageError(["--limit", "0", "--debounce", "300"])?.error == .invalidValue(
      "0", option: "--limit", reason: "expected a whole number from 1 to 200"
    ))
  }

  @Test func reportIsExactlyThreeLines() throws {
    let error = try #require(usageError(["--limit", "abc"]))
    #expect(error.text == """
      Error: Invalid value 'abc' for '--limit': expected a whole number from 1 to 200.
      Usage: stream-search [--replay] [--input PATH] [options]
      See 'stream-search --help' for more information.

      """)
  }

  @Test func controlCharactersInTheUsersWordsCannotBreakTheReportIntoMoreLines() throws {
    let error = try #require(usageError(["--limit", "1\n2\u{1B}[31m"]))
    #expect(error.text.split(separator: "\n", omittingEmptySubsequences: false).count == 4)
    #expect(error.error.summary == "Error: Invalid value '1\\n2\\u{1B}[31m' for '--limit': expected a whole number from 1 to 200.")
  }

  @Test func recordErrorsPointToRecordsUsageAndHelp() throws {
    let error = try #require(usageError(["record", "--inptu", "x"]))
    #expect(error.text == """
      Error: Unknown option '--inptu'. Did you mean '--input'?
      Usage: stream-search record [--input PATH]
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
