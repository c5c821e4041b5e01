// Every option of `stream-search` and of `stream-search record`, in help order. Defaults shown in
// help are printed from `CommandLineOptions()`, so they cannot drift from the values used: the
// pipeline's are `PipelineConfiguration()`'s but for the rules in CommandLineDefaults.swift.
import Pipeline
import Streams

/// The options each command accepts, grouped as the help shows them.
enum OptionTable {
  /// The defaults help quotes.
  private static let defaults = CommandLineOptions()

  /// `--input PATH`, shared by both commands; `-` means standard input.
  private static let input = OptionSpec(
    "--input", "PATH", help: "Read keystrokes from a file or FIFO instead of standard input ('-')."
  ) { draft, value in
    draft.options.inputPath = value == "-" ? nil : value
  }

  /// `--follow`, shared by both commands: reading a FIFO goes on with its next writer.
  private static let follow = OptionSpec("--follow", help: "Keep reading a FIFO input after its writers close.") {
    $0.options.follow = true
  }

  /// The options of `stream-search [options]`.
  static let search: [OptionGroup] = [
    OptionGroup(
      title: "INPUT OPTIONS",
      options: [
        input,
        follow,
        OptionSpec(
          "--replay",
          help: "The input is a recording ({\"at_ms\": …, \"term\": …} lines): replay it in virtual time."
        ) {
          $0.options.replay = true
        },
        OptionSpec(
          "--each",
          help: "Search every input line once, in input order: no debounce, no cancelling (for scripts)."
        ) {
          $0.each = true
        },
        OptionSpec(
          "--max-line-bytes", "N", help: "Skip input lines longer than this, in bytes.",
          default: String(defaults.maxLineBytes)
        ) { draft, value throws(InvalidValue) in
          draft.options.maxLineBytes = try ValueParser.wholeNumber(value, in: 1...Int.max)
        },
        OptionSpec(
          "--session-idle", "DURATION", help: "Forget a session after it has been idle this long.",
          default: defaults.pipeline.sessionIdleTimeout.commandLineText
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.sessionIdleTimeout = try ValueParser.duration(
            value, exampleUnit: .minutes, positive: true)
        },
      ]),
    OptionGroup(
      title: "SEARCH OPTIONS",
      options: [
        OptionSpec(
          "--debounce", "DURATION", help: "Search once the field has been still this long.",
          default: defaults.pipeline.debounce.commandLineText
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.debounce = try ValueParser.duration(value, exampleUnit: .milliseconds)
        },
        OptionSpec(
          "--min-length", "N", help: "Shortest term searched, in characters.",
          default: String(defaults.pipeline.minimumTermLength)
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.minimumTermLength = try ValueParser.wholeNumber(value, in: 1...Int.max)
        },
        OptionSpec(
          "--categories", "LIST",
          help: "Comma-separated categories: music, movies, podcasts, musicVideo, audiobook, shortFilm, tvShow, "
            + "software, ebook.",
          default: defaults.pipeline.categories.map(\.rawValue).joined(separator: ",")
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.categories = try ValueParser.categories(value)
        },
        OptionSpec("--progressive", help: "Emit each category's results as they arrive instead of all at once.") {
          $0.options.pipeline.progressive = true
        },
      ]),
    OptionGroup(
      title: "SOURCE OPTIONS",
      options: [
        OptionSpec(
          "--source", "SOURCE",
          help: "catalog, itunes, or the http(s) URL of a server speaking the iTunes Search API.", default: "catalog"
        ) { draft, value throws(InvalidValue) in
          draft.options.source = try ValueParser.source(value)
        },
        OptionSpec(
          "--catalog", "PATH", help: "JSON file the catalog answers from.", default: "built-in"
        ) { draft, value in
          draft.options.catalogPath = value
        },
        OptionSpec(
          "--latency", "DURATION", help: "How long the catalog takes to answer.",
          default: defaults.latency.commandLineText
        ) { draft, value throws(InvalidValue) in
          draft.options.latency = try ValueParser.duration(value, exampleUnit: .milliseconds)
        },
        OptionSpec(
          "--limit", "N", help: "Results per category, from 1 to 200.", default: String(defaults.pipeline.limit)
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.limit = try ValueParser.wholeNumber(value, in: 1...200)
        },
        OptionSpec(
          "--country", "CODE", help: "Two-letter store country.", default: defaults.pipeline.country
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.country = try ValueParser.country(value)
        },
        OptionSpec(
          "--timeout", "DURATION",
          help: "Per request, from when it is sent (not while it waits for --rate-limit), its retries "
            + "included; when it passes during a retry's backoff, the last failure is reported.",
          default: defaults.pipeline.searchTimeout.map(\.commandLineText) ?? "never"
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.searchTimeout = try ValueParser.duration(value, exampleUnit: .seconds, positive: true)
        },
        OptionSpec(
          "--rate-limit", "RATE", help: "Most requests per window, e.g. 20/min, 5/s, 100/h, 20/60s, or none.",
          default: "\(RateLimit.itunes.commandLineText) for itunes, none otherwise"
        ) { draft, value throws(InvalidValue) in
          draft.rateLimit = try ValueParser.rateLimit(value)
        },
        OptionSpec(
          "--retries", "N", help: "Try a request again up to N times after a server error or a lost connection.",
          default: String(RetryPolicy.commandLine.maxAttempts - 1)
        ) { draft, value throws(InvalidValue) in
          // The policy stays set while options are read, so `--retries 0` then `--retries 3` keeps
          // a `--retry-backoff` given first; the parser drops a one-attempt policy at the end.
          draft.options.pipeline.retry?.maxAttempts = try ValueParser.wholeNumber(value, in: 0...10) + 1
        },
        OptionSpec(
          "--retry-backoff", "DURATION", help: "Wait before the first retry; doubles for each next one.",
          default: RetryPolicy.commandLine.initialBackoff.commandLineText
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.retry?.initialBackoff = try ValueParser.duration(
            value, exampleUnit: .seconds, positive: true)
        },
        OptionSpec("--single-request", help: "Fetch all categories in one request and split the answer.") {
          $0.options.pipeline.singleRequest = true
        },
      ]),
    OptionGroup(
      title: "CACHE OPTIONS",
      options: [
        OptionSpec(
          "--cache-size", "N",
          help:
            "Most answers cached (one per term and category), in memory and on disk, up to 10000000; 0 turns it off.",
          default: String(defaults.pipeline.cacheCapacity)
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.cacheCapacity = try ValueParser.wholeNumber(
            value, in: 0...CommandLineOptions.maximumCacheSize)
        },
        OptionSpec(
          "--cache-ttl", "DURATION",
          help: "How long an answer stays fresh; after that the source is asked again, and the expired answer "
            + "is served (marked stale) only if the source fails.",
          default: defaults.pipeline.cacheTimeToLive.map(\.commandLineText) ?? "never"
        ) { draft, value throws(InvalidValue) in
          draft.options.pipeline.cacheTimeToLive =
            value == "never"
            ? nil : try ValueParser.duration(value, exampleUnit: .minutes, positive: true)
        },
        OptionSpec(
          "--cache-dir", "DIR",
          help: "Keep network answers on disk here, shared by every run and process; none turns it off. "
            + "$XDG_CACHE_HOME/stream-search when that is set; --replay uses none unless given.",
          default: "~/.cache/stream-search"
        ) { draft, value in
          draft.options.cacheDirectory = value == "none" ? .none : .path(value)
        },
        OptionSpec(
          "--cache-max-bytes", "SIZE", help: "Most bytes of answers kept on disk, e.g. 500000, 512K, 64M or 1G.",
          default: ValueParser.byteCountText(defaults.cacheMaxBytes)
        ) { draft, value throws(InvalidValue) in
          draft.options.cacheMaxBytes = try ValueParser.byteCount(value)
        },
      ]),
    OptionGroup(
      title: "INTERACTIVE OPTIONS",
      options: [
        OptionSpec("--interactive", help: "Type into a search screen on the terminal; the default when stdin is one.") {
          $0.interactiveAndLines = $0.interactiveAndLines || $0.interactive == false
          $0.interactive = true
        },
        OptionSpec("--lines", help: "Read lines even when standard input is a terminal.") {
          $0.interactiveAndLines = $0.interactiveAndLines || $0.interactive == true
          $0.interactive = false
        },
        OptionSpec("--record", "PATH", help: "Record the interactive session for --replay.") { draft, value in
          draft.options.recordPath = value
        },
        OptionSpec("--log", "PATH", help: "Append diagnostics to a file instead of standard error.") { draft, value in
          draft.options.logPath = value
        },
      ]),
    OptionGroup(
      title: "OUTPUT OPTIONS",
      options: [
        OptionSpec(
          "--format", "FORMAT", help: "jsonl or pretty.", default: "pretty on a terminal, jsonl otherwise"
        ) { draft, value throws(InvalidValue) in
          draft.format = try ValueParser.choice(value, of: CommandLineOptions.OutputFormat.self)
        },
        OptionSpec("--stats", help: "Also write the summary to standard error.") { $0.options.stats = true },
        OptionSpec("--verbose", help: "Log each request (network or catalog) and cache activity to standard error.") {
          $0.options.verbose = true
        },
        OptionSpec("--quiet", help: "Write nothing to standard error but errors.") { $0.options.quiet = true },
      ]),
  ]

  /// The options of `stream-search record`.
  static let record: [OptionGroup] = [
    OptionGroup(title: "INPUT OPTIONS", options: [input, follow])
  ]
}
