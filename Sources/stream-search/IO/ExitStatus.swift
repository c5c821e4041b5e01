// The statuses the tool exits with (BSD sysexits where one fits, 128 + signal for signals); help
// lists them from here, each command those it can end with.

/// Why the process ended, as its exit status.
enum ExitStatus: Int32, CaseIterable, Sendable {
  /// The input ended and every event was written, or standard output was closed by its reader.
  case success = 0
  /// The command line was wrong (`EX_USAGE`).
  case usage = 64
  /// The input had lines and none of them could be used: every one was an `input_error`
  /// (`EX_DATAERR`). The events were written, the summary last.
  case dataError = 65
  /// The input file or FIFO, or the `--catalog` file, could not be opened (`EX_NOINPUT`).
  case noInput = 66
  /// Redis could not be reached at the start of `publish`, `worker` or `events`, or refused
  /// the credentials (`EX_UNAVAILABLE`).
  case unavailable = 69
  /// Reading the input or writing the output failed (`EX_IOERR`).
  case ioError = 74
  /// A failure that should pass: Redis is out of memory (`EX_TEMPFAIL`). Run the command again
  /// later (`publish` says from which input line).
  case temporaryFailure = 75
  /// `serve` may not listen where asked: a privileged port (`EX_NOPERM`).
  case noPermission = 77
  /// The terminal of the interactive screen hung up (SIGHUP): 128 + 1.
  case hungUp = 129
  /// Interrupted by SIGINT (Ctrl-C): 128 + 2.
  case interrupted = 130
  /// Terminated by SIGTERM: 128 + 15.
  case terminated = 143

  /// What the status means, as help's `EXIT STATUS:` section says it.
  var meaning: String {
    switch self {
    case .success: "Done: the input ended, or the reader of standard output went away."
    case .usage: "The command line is wrong, or the interactive mode has no terminal."
    case .dataError: "The input had lines, and not one could be used (each is an input_error event)."
    case .noInput: "The input, or the --catalog file, cannot be opened."
    case .unavailable: "Redis cannot be reached (publish, worker, events), or serve cannot listen."
    case .ioError: "Reading input or writing output failed."
    case .noPermission: "serve or worker --metrics may not listen on the address (a privileged port)."
    case .temporaryFailure: "A temporary failure: Redis is out of memory (publish, worker); run again later."
    case .hungUp: "The terminal went away (SIGHUP) during the interactive mode."
    case .interrupted: "Interrupted (SIGINT), after writing what was pending."
    case .terminated: "Terminated (SIGTERM), after writing what was pending."
    }
  }

  /// The statuses `command` can end with, in order: the tool's help (`.search`) lists them all,
  /// since it introduces every command; a subcommand's help lists its own.
  static func statuses(of command: CommandLineParser.Command) -> [ExitStatus] {
    switch command {
    case .search: allCases
    case .record: [.success, .usage, .noInput, .ioError, .interrupted, .terminated]
    case .publish: [.success, .usage, .noInput, .unavailable, .ioError, .temporaryFailure, .interrupted, .terminated]
    // A worker runs until a signal stops it; its --catalog is its only input.
    case .worker:
      [.usage, .noInput, .unavailable, .ioError, .temporaryFailure, .noPermission, .interrupted, .terminated]
    case .events: [.success, .usage, .unavailable, .ioError, .interrupted, .terminated]
    case .help: [.success, .usage, .ioError]
    case .serve: [.usage, .noInput, .unavailable, .ioError, .noPermission, .interrupted, .terminated]
    }
  }

  /// What the status means for `command`: the tool's help says it for every command, a
  /// subcommand's help for itself.
  func meaning(for command: CommandLineParser.Command) -> String {
    switch (self, command) {
    case (.success, .events):
      "Done: every event was printed (without --follow), or the reader of standard output went away."
    case (.success, .help): "The help was printed, or the reader of standard output went away."
    case (.usage, .record), (.usage, .events), (.usage, .help):
      "The command line is wrong."
    case (.usage, .publish), (.usage, .worker):
      "The command line is wrong, or it conflicts with the shard count stored for the prefix."
    case (.ioError, .help): "Writing output failed."
    case (.noInput, .worker): "The --catalog file cannot be opened."
    case (.noInput, .record), (.noInput, .publish): "The input cannot be opened."
    case (.unavailable, .publish), (.unavailable, .events):
      "Redis cannot be reached, refused the credentials, or answers what Redis never does."
    case (.unavailable, .worker):
      "Redis cannot be reached, refused the credentials, or answers what Redis never does; or --metrics "
        + "cannot listen on its address."
    case (.noPermission, .worker): "--metrics may not listen on the address (a privileged port)."
    case (.temporaryFailure, .publish):
      "Redis is out of memory: run again later, from the input line the error names."
    case (.temporaryFailure, .worker): "Redis is out of memory: start the worker again later."
    case (.ioError, .worker): "The --log file cannot be opened, or no pipe can be made to watch for signals."
    case (.ioError, .events): "Writing output failed."
    case (.unavailable, .serve):
      "The address cannot be listened on (in use, or not this machine's), or with --redis Redis cannot be reached."
    default: meaning
    }
  }
}
