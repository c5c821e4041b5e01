// The validated configuration of a search run: plain values, every one already checked, so the
// code that builds the pipeline from it has nothing left to reject.
import Foundation
import LineIO
import Pipeline
import SQLiteStorage
import Streams

/// Everything `stream-search [options]` was asked to do, validated and with defaults filled in.
///
/// Made by ``CommandLineParser/parse(_:stdoutIsTerminal:stdinIsTerminal:notUTF8:)``;
/// `CommandLineOptions()` holds the defaults that help prints (with ``format`` as for a pipe and
/// the rate limit as for the catalog): the tool's own fields, and in ``pipeline`` the library's
/// defaults but for the rules in CommandLineDefaults.swift.
struct CommandLineOptions: Equatable, Sendable {
  /// Where results come from.
  enum Source: Equatable, Sendable {
    /// The built-in (or `--catalog`) catalog, answering after ``CommandLineOptions/latency``.
    case catalog
    /// The public iTunes Search API.
    case itunes
    /// A server that speaks the iTunes Search API at this http(s) URL (e.g. a test server).
    case url(URL)
  }

  /// Where the disk cache lives (`--cache-dir`).
  enum CacheDirectory: Equatable, Sendable {
    /// `$XDG_CACHE_HOME/stream-search`, else `~/.cache/stream-search`; none for `--replay`, whose
    /// output must not depend on what earlier runs left on disk.
    case standard
    /// `--cache-dir none`: memory only.
    case none
    /// `--cache-dir DIR`.
    case path(String)
  }

  /// How events are written to standard output.
  enum OutputFormat: String, CaseIterable, Equatable, Sendable {
    /// One JSON object per line, for `jq`, `grep` and `tee`.
    case jsonl
    /// Readable text for a terminal.
    case pretty
  }

  /// The file or FIFO keystrokes are read from; nil reads standard input.
  var inputPath: String?
  /// Keep reading the FIFO at ``inputPath`` after its writers close, by opening it again.
  var follow = false
  /// The input is a recording (`{"at_ms": …, "term": …}` lines) to replay in virtual time.
  var replay = false
  /// Where results come from.
  var source = Source.catalog
  /// The JSON file the catalog answers from; nil uses the built-in catalog.
  var catalogPath: String?
  /// How long the catalog takes to answer each load.
  var latency = Duration.zero
  /// The search, source and cache settings (`--debounce`, `--min-length`, `--categories`,
  /// `--limit`, `--country`, `--timeout`, `--rate-limit`, `--retries`, `--retry-backoff`,
  /// `--cache-size`, `--cache-ttl`, `--progressive`, `--single-request`, `--session-idle`), kept
  /// as the pipeline takes them. Its disk tier and log are set when the run is built.
  var pipeline = PipelineConfiguration.commandLine
  /// The largest `--cache-size` accepted: far more answers than memory holds, so a larger
  /// number can only be a mistake. The cache grows as answers arrive, whatever the size.
  static let maximumCacheSize = 10_000_000
  /// Where the disk cache of network answers lives.
  var cacheDirectory = CacheDirectory.standard
  /// Most bytes of answers the disk cache keeps.
  var cacheMaxBytes = SQLiteStore.defaultMaxBytes
  /// How events are written; the parser picks ``OutputFormat/pretty`` for a terminal.
  var format = OutputFormat.jsonl
  /// Log `[network]` and `[cache]` activity to standard error.
  var verbose = false
  /// Write nothing to standard error but errors.
  var quiet = false
  /// Also write the summary to standard error.
  var stats = false
  /// Longest input line accepted, in bytes; at least 1.
  var maxLineBytes = InputLine.defaultMaxLength
  /// A person types into the terminal (the fzf-style screen) instead of lines being read.
  var interactive = false
  /// Where the interactive mode records the session, as `stream-search record` would.
  var recordPath: String?
  /// Where diagnostics go instead of standard error.
  var logPath: String?
  /// Terms searched once each, with their `results` (or `error`) written in order and nothing
  /// else: `stream-search TERM…` or `--each`; nil for the search-as-you-type run.
  var oneShot: OneShot?

  /// Whether the run reads lines (all but a search of terms given as arguments).
  var readsInput: Bool {
    guard case .terms = oneShot else { return true }
    return false
  }

  /// What a one-shot run searches.
  enum OneShot: Equatable, Sendable {
    /// These terms, given as arguments.
    case terms([String])
    /// Every input line, in input order.
    case eachLine
  }
}

/// What `stream-search record [--input PATH] [--follow]` was asked to do.
struct RecordOptions: Equatable, Sendable {
  /// The file or FIFO lines are read from; nil reads standard input.
  var inputPath: String?
  /// Keep reading the FIFO at ``inputPath`` after its writers close, as a live run does.
  var follow = false
}

/// What a command line asks the tool to do, once parsed.
enum Invocation: Equatable, Sendable {
  /// Run the search pipeline.
  case search(CommandLineOptions)
  /// Stamp each input line with `at_ms` and write it as JSON Lines.
  case record(RecordOptions)
  /// Append keystrokes to their shards' streams on Redis.
  case publish(PublishOptions)
  /// Run the pipeline over a share of the shards on Redis until stopped.
  case worker(WorkerOptions)
  /// Print the events the workers committed.
  case events(EventsOptions)
  /// Serve the search page, WebSockets and `/search` over HTTP.
  case serve(ServeOptions)
  /// Print this help text to standard output and exit 0.
  case help(String)
  /// Print this version line to standard output and exit 0.
  case version(String)
}
