// Parsing `stream-search`'s options: defaults, every option's valid values in both spellings,
// last-wins repetition, and the defaults that depend on other options or on the terminal.
import Foundation
import Pipeline
import Streams
import Testing

@testable import stream_search

/// Parses `arguments` for a pipe (not a terminal) and returns the search options, failing the test
/// on anything else.
func searchOptions(_ arguments: [String], terminal: Bool = false) throws -> CommandLineOptions {
  let invocation = try CommandLineParser.parse(arguments, stdoutIsTerminal: terminal)
  guard case .search(let options) = invocation else {
    Issue.record("Expected a search run for \(arguments), got \(invocation)")
    throw CancellationError()
  }
  return options
}

/// The defaults, changed by `change`.
func defaults(_ change: (inout CommandLineOptions) -> Void = { _ in }) -> CommandLineOptions {
  var options = CommandLineOptions()
  change(&options)
  return options
}

/// The URL of `text`; a placeholder that matches no option when `text` is not one, so the test fails.
func webAddress(_ text: String) -> URL {
  URL(string: text) ?? URL(fileURLWithPath: "/not-a-url")
}

@Suite struct CommandLineParserTests {
  @Test func noArgumentsGiveTheDocumentedDefaults() throws {
    let options = try searchOptions([])
    #expect(options.inputPath == nil)
    #expect(!options.follow && !options.replay)
    #expect(options.source == .catalog)
    #expect(options.catalogPath == nil)
    #expect(options.latency == .zero)
    #expect(options.pipeline.categories == [.music, .movies, .podcasts])
    #expect(options.pipeline.debounce == .milliseconds(300))
    #expect(options.pipeline.minimumTermLength == 1)
    #expect(options.pipeline.limit == 25)
    #expect(options.pipeline.country == "US")
    #expect(options.pipeline.searchTimeout == .seconds(10))
    #expect(options.pipeline.rateLimit == nil)
    #expect(
      options.pipeline.retry == RetryPolicy(maxAttempts: 3, initialBackoff: .seconds(1), maxBackoff: .seconds(60)))
    #expect(options.pipeline.cacheCapacity == 1_000)
    #expect(options.pipeline.cacheTimeToLive == nil)
    #expect(!options.pipeline.progressive && !options.pipeline.singleRequest)
    #expect(options.format == .jsonl)
    #expect(!options.verbose && !options.quiet && !options.stats)
    #expect(options.maxLineBytes == 1_048_576)
    #expect(options.pipeline.sessionIdleTimeout == .seconds(600))
    // Where the tool and the library agree, the default is the library's; retrying is the tool's rule.
    var library = PipelineConfiguration()
    library.retry = .commandLine
    #expect(options.pipeline == library)
  }

  @Test func formatIsPrettyOnATerminalAndJSONLinesOtherwise() throws {
    #expect(try searchOptions([], terminal: true).format == .pretty)
    #expect(try searchOptions([], terminal: false).format == .jsonl)
    #expect(try searchOptions(["--format", "jsonl"], terminal: true).format == .jsonl)
    #expect(try searchOptions(["--format", "pretty"], terminal: false).format == .pretty)
  }

  /// Each option with a valid value, and the options it must give.
  static let validOptions: [([String], CommandLineOptions)] = [
    (["--input", "keys.txt"], defaults { $0.inputPath = "keys.txt" }),
    (["--input", "-"], defaults()),
    (
      ["--input", "keys.txt", "--follow"],
      defaults {
        $0.inputPath = "keys.txt"
        $0.follow = true
      }
    ),
    (["--replay"], defaults { $0.replay = true }),
    (["--source", "catalog"], defaults()),
    (
      ["--source", "itunes"],
      defaults {
        $0.source = .itunes
        $0.pipeline.rateLimit = .itunes
      }
    ),
    (
      ["--source", "iTunes"],
      defaults {
        $0.source = .itunes
        $0.pipeline.rateLimit = .itunes
      }
    ),
    (
      ["--source", "http://127.0.0.1:8080/search"],
      defaults { $0.source = .url(webAddress("http://127.0.0.1:8080/search")) }
    ),
    (["--source", "https://itunes.example"], defaults { $0.source = .url(webAddress("https://itunes.example")) }),
    (["--catalog", "items.json"], defaults { $0.catalogPath = "items.json" }),
    (["--latency", "401ms"], defaults { $0.latency = .milliseconds(401) }),
    (["--categories", "music"], defaults { $0.pipeline.categories = [.music] }),
    (
      ["--categories", "podcast,MOVIES,music,podcasts"],
      defaults { $0.pipeline.categories = [.podcasts, .movies, .music] }
    ),
    (["--categories", "tvShow,ebook"], defaults { $0.pipeline.categories = [.tvShow, .ebook] }),
    (["--debounce", "0"], defaults { $0.pipeline.debounce = .zero }),
    (["--debounce", "1.5s"], defaults { $0.pipeline.debounce = .milliseconds(1_500) }),
    (["--min-length", "3"], defaults { $0.pipeline.minimumTermLength = 3 }),
    (["--limit", "1"], defaults { $0.pipeline.limit = 1 }),
    (["--limit", "200"], defaults { $0.pipeline.limit = 200 }),
    (["--country", "gb"], defaults { $0.pipeline.country = "GB" }),
    (["--timeout", "2m"], defaults { $0.pipeline.searchTimeout = .seconds(120) }),
    (["--rate-limit", "5/s"], defaults { $0.pipeline.rateLimit = RateLimit(permits: 5, per: .seconds(1)) }),
    (["--rate-limit", "20/60s"], defaults { $0.pipeline.rateLimit = RateLimit(permits: 20, per: .seconds(60)) }),
    (["--rate-limit", "none"], defaults()),
    (["--source", "itunes", "--rate-limit", "none"], defaults { $0.source = .itunes }),
    (
      ["--source", "itunes", "--rate-limit", "100/h"],
      defaults {
        $0.source = .itunes
        $0.pipeline.rateLimit = RateLimit(permits: 100, per: .seconds(3_600))
      }
    ),
    (["--cache-size", "0"], defaults { $0.pipeline.cacheCapacity = 0 }),
    (["--cache-size", "50"], defaults { $0.pipeline.cacheCapacity = 50 }),
    (["--cache-ttl", "10m"], defaults { $0.pipeline.cacheTimeToLive = .seconds(600) }),
    (["--cache-ttl", "never"], defaults()),
    (["--cache-max-bytes", "500000"], defaults { $0.cacheMaxBytes = 500_000 }),
    (["--cache-max-bytes", "512k"], defaults { $0.cacheMaxBytes = 512 << 10 }),
    (["--cache-max-bytes", "1G"], defaults { $0.cacheMaxBytes = 1 << 30 }),
    (["--progressive"], defaults { $0.pipeline.progressive = true }),
    (["--single-request"], defaults { $0.pipeline.singleRequest = true }),
    (["--format", "pretty"], defaults { $0.format = .pretty }),
    (["--verbose"], defaults { $0.verbose = true }),
    (["--quiet"], defaults { $0.quiet = true }),
    (["--stats"], defaults { $0.stats = true }),
    (["--max-line-bytes", "64"], defaults { $0.maxLineBytes = 64 }),
    (["--session-idle", "30s"], defaults { $0.pipeline.sessionIdleTimeout = .seconds(30) }),
    (["--retries", "0"], defaults { $0.pipeline.retry = nil }),
    (["--retries", "5"], defaults { $0.pipeline.retry?.maxAttempts = 6 }),
    (["--retry-backoff", "250ms"], defaults { $0.pipeline.retry?.initialBackoff = .milliseconds(250) }),
    (
      ["--retry-backoff", "2s", "--retries", "0", "--retries", "4"],
      defaults {
        $0.pipeline.retry = RetryPolicy(maxAttempts: 5, initialBackoff: .seconds(2), maxBackoff: .seconds(60))
      }
    ),
  ]

  @Test(arguments: validOptions)
  func eachOptionSetsItsValueAndNothingElse(arguments: [String], expected: CommandLineOptions) throws {
    #expect(try searchOptions(arguments) == expected)
  }

  @Test(arguments: validOptions)
  func equalsFormGivesTheSameOptionsAsSeparateValue(arguments: [String], expected: CommandLineOptions) throws {
    // Join every `--option value` pair into `--option=value`; flags stay as they are.
    var joined: [String] = []
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
        joined.append("\(word)=\(arguments[index + 1])")
        index += 2
      } else {
        joined.append(word)
        index += 1
      }
    }
    #expect(try searchOptions(joined) == expected)
  }

  @Test func aByteCountIsWrittenInItsLargestExactUnitAndReadsBackTheSame() throws {
    let counts = [1, 1_000, 1 << 10, 1_536, 64 << 20, (1 << 20) + 1, 3 << 30, 5 << 40]
    #expect(counts.map(ValueParser.byteCountText) == ["1", "1000", "1K", "1536", "64M", "1048577", "3G", "5120G"])
    for count in counts {
      #expect(try ValueParser.byteCount(ValueParser.byteCountText(count)) == count)
    }
  }

  @Test func aRepeatedOptionKeepsItsLastValue() throws {
    #expect(try searchOptions(["--limit", "5", "--limit=7"]).pipeline.limit == 7)
    #expect(try searchOptions(["--categories", "music", "--categories", "ebook"]).pipeline.categories == [.ebook])
    #expect(try searchOptions(["--source", "itunes", "--source", "catalog"]) == defaults())
    let unlimited = try searchOptions(["--rate-limit", "5/s", "--rate-limit", "none", "--source", "itunes"])
    #expect(unlimited.pipeline.rateLimit == nil)
    #expect(try searchOptions(["--input", "a", "--input", "-"]).inputPath == nil)
  }

  @Test func equalsFormKeepsEverythingAfterTheFirstEqualsSign() throws {
    #expect(try searchOptions(["--input=a=b.txt"]).inputPath == "a=b.txt")
    #expect(try searchOptions(["--catalog=", "--input", "x"]).catalogPath == "")
  }

  @Test func valuesThatLookLikeNegativeNumbersOrStdinAreTakenAsValues() throws {
    #expect(try searchOptions(["--input", "-"]).inputPath == nil)
    let expected = CommandLineError.invalidValue(
      "-5", option: "--limit", reason: "expected a whole number from 1 to 200"
    )
    #expect(throws: UsageError(error: expected, command: .search)) {
      try CommandLineParser.parse(["--limit", "-5"], stdoutIsTerminal: false)
    }
  }

  @Test func helpAndVersionWinWhereverTheyAre() throws {
    let help = HelpText.render(.search)
    #expect(try CommandLineParser.parse(["--help"], stdoutIsTerminal: false) == .help(help))
    #expect(try CommandLineParser.parse(["-h"], stdoutIsTerminal: false) == .help(help))
    #expect(try CommandLineParser.parse(["--limit", "abc", "--bogus", "-h"], stdoutIsTerminal: false) == .help(help))
    let version = Invocation.version("stream-search 0.1.0\n")
    #expect(try CommandLineParser.parse(["--version"], stdoutIsTerminal: false) == version)
    #expect(try CommandLineParser.parse(["x", "--version"], stdoutIsTerminal: false) == version)
    #expect(try CommandLineParser.parse(["--version", "--help"], stdoutIsTerminal: false) == version)
    // After `--` nothing is an option, not even `--help`: it is a term to search.
    #expect(try searchOptions(["--", "--help"]).oneShot == .terms(["--help"]))
  }

  @Test func recordTakesOnlyAnInputAndFollow() throws {
    #expect(try CommandLineParser.parse(["record"], stdoutIsTerminal: false) == .record(RecordOptions()))
    #expect(
      try CommandLineParser.parse(["record", "--input", "keys.fifo", "--follow"], stdoutIsTerminal: false)
        == .record(RecordOptions(inputPath: "keys.fifo", follow: true))
    )
    #expect(
      throws: UsageError(error: .missingRequirement(option: "--follow", required: "--input PATH"), command: .record)
    ) {
      try CommandLineParser.parse(["record", "--follow"], stdoutIsTerminal: false)
    }
    #expect(
      try CommandLineParser.parse(["record", "--input", "keys.txt"], stdoutIsTerminal: false)
        == .record(RecordOptions(inputPath: "keys.txt"))
    )
    #expect(try CommandLineParser.parse(["record", "--input=-"], stdoutIsTerminal: false) == .record(RecordOptions()))
    #expect(throws: UsageError(error: .unknownOption("--debounce", suggestion: nil), command: .record)) {
      try CommandLineParser.parse(["record", "--debounce", "1s"], stdoutIsTerminal: false)
    }
  }

  @Test func recordHasItsOwnHelp() throws {
    let invocation = try CommandLineParser.parse(["record", "--help"], stdoutIsTerminal: false)
    guard case .help(let text) = invocation else {
      Issue.record("Expected help, got \(invocation)")
      return
    }
    #expect(text.contains("USAGE: stream-search record [--input PATH] [--follow]\n"))
    #expect(!text.contains("--debounce"))
  }

  @Test func helpIsASubcommandOfItsOwn() throws {
    #expect(try CommandLineParser.parse(["help"], stdoutIsTerminal: false) == .help(HelpText.render(.search)))
    #expect(
      try CommandLineParser.parse(["help", "--help"], stdoutIsTerminal: false) == .help(HelpText.render(.search)))
    for command in [CommandLineParser.Command.search, .record, .publish, .worker, .events, .help] {
      #expect(
        try CommandLineParser.parse(["help", command.rawValue], stdoutIsTerminal: false)
          == .help(HelpText.render(command)))
    }
    #expect(throws: UsageError(error: .unknownCommand("recrod", suggestion: "record"), command: .help)) {
      try CommandLineParser.parse(["help", "recrod"], stdoutIsTerminal: false)
    }
    #expect(throws: UsageError(error: .unknownCommand("colour", suggestion: nil), command: .help)) {
      try CommandLineParser.parse(["help", "colour"], stdoutIsTerminal: false)
    }
    #expect(throws: UsageError(error: .unexpectedArgument("now"), command: .help)) {
      try CommandLineParser.parse(["help", "record", "now"], stdoutIsTerminal: false)
    }
  }

  @Test func eachSubcommandsHelpListsOnlyTheStatusesItCanEndWith() throws {
    func statuses(_ command: CommandLineParser.Command) -> [String] {
      let help = HelpText.render(command)
      let table = help.components(separatedBy: "EXIT STATUS:\n").last ?? ""
      return table.split(separator: "\n").compactMap { line in
        line.split(separator: " ").first.flatMap { Int($0) != nil ? String($0) : nil }
      }
    }
    #expect(statuses(.search) == ["0", "64", "65", "66", "69", "74", "75", "77", "129", "130", "143"])
    #expect(statuses(.serve) == ["64", "66", "69", "74", "77", "130", "143"])
    #expect(statuses(.record) == ["0", "64", "66", "74", "130", "143"])
    #expect(statuses(.events) == ["0", "64", "69", "74", "130", "143"])
    // A full Redis: what writes to it can end with.
    #expect(statuses(.publish) == ["0", "64", "66", "69", "74", "75", "130", "143"])
    // A full Redis, and --metrics on a privileged port.
    #expect(statuses(.worker) == ["64", "66", "69", "74", "75", "77", "130", "143"])
    for command in [CommandLineParser.Command.record, .publish, .worker, .events, .help] {
      // The interactive screen's hang-up and the bad-input status are the search command's alone.
      #expect(!statuses(command).contains("129") && !statuses(command).contains("65"), "\(command)")
    }
  }
}
