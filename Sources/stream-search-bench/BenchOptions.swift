// The benchmark's command line: how many runs, how large, which sections, and the output form.

/// What the benchmark was asked to do.
struct BenchOptions: Sendable {
  /// Timed runs per figure (after one warm-up).
  var runs = 5
  /// Elements per operator run (the N).
  var elements = 1_000_000
  /// Bursts of 1,000 elements in the live debounce run; each is followed by 60 ms of quiet, so
  /// the run lasts at least bursts × 60 ms. The 1,000 bursts take a minute per run, six
  /// minutes with the warm-up: the default measures 100 (the figure is per element either way);
  /// `--full` measures 1,000.
  var debounceBursts = 100
  /// Also stream 10,000,000 lines through the binary (the "binary" section's (b)), not only 1,000,000.
  var fullBinaryPipe = false
  /// WebSocket sessions of the "serve" section (fewer when the descriptor limit is lower).
  var serveSessions = 10_000
  /// Print JSON instead of the table.
  var json = false
  /// The 200,000-keystroke recording, if given.
  var tracePath: String?
  /// Only these sections (nil: the default set): operators, lines, virtual, replay, catalog,
  /// long, million, cache, disk, binary, engine, interactive, signals, cancel, scaleout, webserver,
  /// serve.
  var sections: Set<String>?
  /// Also measure the operators over the standard library's AsyncStream ("operators"): a
  /// reference row for the stdlib, not our code, and a third of the run's time.
  var includeAsyncStreamReference = false

  static let usage = """
    USAGE: stream-search-bench [--json] [--quick] [--full] [--runs <n>] [--trace <path>] [--sessions <n>]
                               [--only <sections>]

    OPTIONS:
      --json             Print the figures as JSON instead of a table.
      --quick            3 runs, N = 200,000, 50 debounce bursts (about a minute).
      --full             The issue's 1,000 debounce bursts (adds about 5 minutes), the
                         10,000,000-line pipe through the binary (adds about 2 minutes), the
                         operators over AsyncStream for reference (section "operators") and
                         the catalog of 1,000,000 items (section "million").
      --runs <n>         Timed runs per figure (default: 5).
      --trace <path>     The 200,000-keystroke recording (default: .bench/, generated if absent).
      --sessions <n>     WebSocket sessions of section "serve" (default: 10,000, or what
                         the descriptor limit allows).
      --only <sections>  Comma-separated: operators, lines, virtual, replay, catalog, long,
                         million, cache, disk, binary, engine, interactive, signals, cancel,
                         scaleout, webserver, serve.
      -h, --help         Show help information.
    """

  /// Parses `arguments` (without the program name); throws a message for a bad one.
  init(arguments: [String]) throws(BenchOptionsError) {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--json": json = true
      case "--quick":
        runs = 3
        elements = 200_000
        debounceBursts = 50
      case "--full":
        debounceBursts = 1_000
        fullBinaryPipe = true
        includeAsyncStreamReference = true
      case "--runs":
        guard let value = remaining.popFirst().flatMap(Int.init), value > 0 else {
          throw BenchOptionsError(message: "--runs needs a positive number")
        }
        runs = value
      case "--sessions":
        guard let value = remaining.popFirst().flatMap(Int.init), value > 0 else {
          throw BenchOptionsError(message: "--sessions needs a positive number")
        }
        serveSessions = value
      case "--trace":
        guard let value = remaining.popFirst() else { throw BenchOptionsError(message: "--trace needs a path") }
        tracePath = value
      case "--only":
        guard let value = remaining.popFirst() else { throw BenchOptionsError(message: "--only needs sections") }
        sections = Set(value.split(separator: ",").map(String.init))
      case "-h", "--help": throw BenchOptionsError(message: nil)
      default: throw BenchOptionsError(message: "Unknown option '\(argument)'")
      }
    }
  }

  /// Whether `section` is to be measured: a named one, or by default every section but the
  /// AsyncStream reference and the million items (kept for `--full`, so the default run stays
  /// under five minutes).
  func includes(_ section: String) -> Bool {
    if let sections { return sections.contains(section) }
    return !["operators", "million"].contains(section) || includeAsyncStreamReference
  }
}

/// A bad command line; a nil message asks for the help text.
struct BenchOptionsError: Error {
  let message: String?
}
