// Standard error for people: `[network] …` and `[cache] …` activity lines with --verbose, and
// one-line warnings and errors. Standard output stays for events only.

/// What a verbose line is about; printed as its `[topic]` prefix.
enum LogTopic: String, Sendable {
  /// Requests and responses.
  case network
  /// Cache hits, misses and evictions.
  case cache
  /// Input lines read, skipped or malformed.
  case input
  /// Sessions started and forgotten.
  case session
}

/// Writes diagnostics to standard error, one line each, as much as `--verbose`/`--quiet` allow.
///
/// Every message is kept to one line: control characters in it (a newline inside a search term,
/// say) are written as escapes such as `\n`. Failures to write to standard error are ignored:
/// there is nowhere left to report them.
struct Log: Sendable {
  /// How much is written.
  enum Level: Int, Comparable, Sendable {
    /// Errors only (`--quiet`).
    case quiet
    /// Warnings and errors.
    case normal
    /// Topic lines too (`--verbose`).
    case verbose

    /// Orders levels by how much they write.
    static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// How much is written.
  let level: Level
  /// Where lines go: standard error unless a test says otherwise.
  let writer: OutputWriter

  /// A log at `level` writing to `writer`.
  init(level: Level, writer: OutputWriter = .standardError) {
    self.level = level
    self.writer = writer
  }

  /// A log at the level `--verbose` and `--quiet` ask for.
  init(options: CommandLineOptions, writer: OutputWriter = .standardError) {
    self.init(level: options.verbose ? .verbose : options.quiet ? .quiet : .normal, writer: writer)
  }

  /// `[topic] message`, with `--verbose` only; the message is not built otherwise.
  func verbose(_ topic: LogTopic, _ message: @autoclosure () -> String) {
    guard level >= .verbose else { return }
    emit("[\(topic.rawValue)] \(message())")
  }

  /// A diagnostic line that carries its own `[topic]` prefix, with `--verbose` only.
  func diagnostic(_ line: @autoclosure () -> String) {
    guard level >= .verbose else { return }
    emit(line())
  }

  /// A statistics line (`--stats`), written whatever the level: the user asked for it.
  func stats(_ line: String) {
    emit(line)
  }

  /// `Warning: message`, unless `--quiet`: something was skipped but the run goes on.
  func warning(_ message: String) {
    guard level >= .normal else { return }
    emit("Warning: \(message)")
  }

  /// `Error: message`, always: the run is ending because of it.
  func error(_ message: String) {
    emit("Error: \(message)")
  }

  /// Writes `line` and a newline, ignoring failure.
  private func emit(_ line: String) {
    try? writer.write(line.escapingControlCharacters + "\n")
  }
}

extension String {
  /// The string with control characters (newline, tab, escape, …) written as Swift escapes such
  /// as `\n` and `\u{1B}`, so that it prints as one line.
  var escapingControlCharacters: String {
    var result = ""
    for scalar in unicodeScalars {
      if scalar.properties.generalCategory == .control {
        result += scalar.escaped(asASCII: false)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
