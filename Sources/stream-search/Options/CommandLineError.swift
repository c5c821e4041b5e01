// Command lines that cannot be run, and the three lines of standard error that explain them, in
// swift-argument-parser's words: the problem, the usage, and where to read more.

/// What is wrong with a command line; ``summary`` is the first line of the report.
enum CommandLineError: Error, Equatable, Sendable {
  /// An option no command knows, with the closest known one when it is a likely typo.
  case unknownOption(String, suggestion: String?)
  /// An option that takes a value came last, or was followed by another option.
  case missingValue(option: String)
  /// An option's value could not be used; `reason` says what was expected.
  case invalidValue(String, option: String, reason: String)
  /// A flag was written with `=value`, but it takes none.
  case unexpectedValue(String, option: String)
  /// A word that is neither an option nor a value of one.
  case unexpectedArgument(String)
  /// A first word (or the word after `help`) that names no subcommand, with the closest one when
  /// it is a likely typo.
  case unknownCommand(String, suggestion: String?)
  /// A first word that looks like a file name: keystrokes are read from `--input PATH`.
  case pathAsArgument(String)
  /// A first word that is neither a subcommand nor a file name: most likely a term to search,
  /// which the tool reads from its input.
  case termAsArgument(String)
  /// `--record` without the interactive screen: lines from a pipe or a file are recorded by
  /// the `record` subcommand.
  case recordWithoutScreen
  /// Two options that cannot be used together.
  case conflictingOptions(String, String)
  /// `option` makes sense only together with `required`.
  case missingRequirement(option: String, required: String)
  /// The command cannot run without this option (shown with its value's label).
  case missingOption(String)

  /// One line saying what is wrong, starting `Error: `. Control characters in the user's words
  /// are escaped (`\n`), so the report stays one line.
  var summary: String {
    switch self {
    case .unknownOption(let option, let suggestion?):
      "Error: Unknown option '\(oneLine(option))'. Did you mean '\(suggestion)'?"
    case .unknownOption(let option, nil):
      "Error: Unknown option '\(oneLine(option))'."
    case .missingValue(let option):
      "Error: Missing value for '\(option)'."
    case .invalidValue(let value, let option, let reason):
      "Error: Invalid value '\(oneLine(value))' for '\(option)': \(oneLine(reason))."
    case .unexpectedValue(let value, let option):
      "Error: Invalid value '\(oneLine(value))' for '\(option)': it takes no value."
    case .unexpectedArgument(let argument):
      "Error: Unexpected argument '\(oneLine(argument))'."
    case .unknownCommand(let command, let suggestion?):
      "Error: Unknown subcommand '\(oneLine(command))'. Did you mean '\(suggestion)'?"
    case .unknownCommand(let command, nil):
      "Error: Unknown subcommand '\(oneLine(command))'."
    case .pathAsArgument(let path):
      "Error: Unexpected argument '\(oneLine(path))'. Did you mean '--input \(oneLine(path))'?"
    case .termAsArgument(let term):
      "Error: Unexpected argument '\(oneLine(term))'. Terms are read from standard input (or --input), one per line."
    case .recordWithoutScreen:
      "Error: '--record' records typing on the interactive screen, and this run has none; "
        + "to record lines from a pipe or a file, use 'stream-search record'."
    case .conflictingOptions(let first, let second):
      "Error: '\(first)' cannot be used with '\(second)'."
    case .missingRequirement(let option, let required):
      "Error: '\(option)' needs '\(required)'."
    case .missingOption(let option):
      "Error: Missing '\(option)'."
    }
  }

  /// User text made safe for a one-line report; see `String.escapingControlCharacters`.
  private func oneLine(_ text: String) -> String { text.escapingControlCharacters }
}

/// A rejected command line and the command it was meant for: what the tool writes to standard
/// error before exiting with ``ExitStatus/usage``.
struct UsageError: Error, Equatable, Sendable {
  /// What is wrong.
  let error: CommandLineError
  /// The command that was being parsed, whose usage and help the report points to.
  let command: CommandLineParser.Command

  /// Exactly three lines, each ending in a newline: the summary, `Usage: …`, and a pointer to
  /// the command's `--help` (the tool's, for `help`).
  var text: String {
    let helpOf = command == .help ? CommandLineParser.Command.search : command
    return """
      \(error.summary)
      Usage: \(command.usage)
      See '\(helpOf.name) --help' for more information.

      """
  }
}
