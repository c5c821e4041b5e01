// The statuses the tool exits with (BSD sysexits where one fits, 128 + signal for signals); help
// lists them from here.

/// Why the process ended, as its exit status.
enum ExitStatus: Int32, CaseIterable, Sendable {
  /// The input ended and every event was written, or standard output was closed by its reader.
  case success = 0
  /// The command line was wrong (`EX_USAGE`).
  case usage = 64
  /// The input file or FIFO could not be opened (`EX_NOINPUT`).
  case noInput = 66
  /// Redis could not be reached at the start of `publish`, `worker` or `events`, or refused
  /// the credentials (`EX_UNAVAILABLE`).
  case unavailable = 69
  /// Reading the input or writing the output failed (`EX_IOERR`).
  case ioError = 74
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
    case .noInput: "The input cannot be opened."
    case .unavailable: "Redis cannot be reached (publish, worker, events)."
    case .ioError: "Reading input or writing output failed."
    case .hungUp: "The terminal went away (SIGHUP) during the interactive mode."
    case .interrupted: "Interrupted (SIGINT), after writing what was pending."
    case .terminated: "Terminated (SIGTERM), after writing what was pending."
    }
  }
}
