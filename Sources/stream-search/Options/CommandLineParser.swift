// Reads `stream-search`'s arguments into an `Invocation`: help, version, a record run or a search
// run with validated options. Conventions follow swift-argument-parser: `--opt value` and
// `--opt=value`, `--help`/`-h` and `--version` anywhere, `help [SUBCOMMAND]`, a repeated option's
// last value wins, and a mistyped option or subcommand gets a suggestion.

/// Parses command lines; see ``parse(_:stdoutIsTerminal:stdinIsTerminal:notUTF8:)``.
enum CommandLineParser {
  /// The executable's name, as help and errors print it.
  static let toolName = "stream-search"
  /// The version `--version` prints.
  static let version = "0.1.0"

  /// The commands the tool has: the search itself, `record`, and the three that run on Redis.
  enum Command: String, CaseIterable, Equatable, Sendable {
    /// `stream-search [options]`.
    case search
    /// `stream-search record [--input PATH] [--follow]`.
    case record
    /// `stream-search publish --redis URL [--input PATH] [--follow]`.
    case publish
    /// `stream-search worker --redis URL [--name NAME] [options]`.
    case worker
    /// `stream-search events --redis URL [--follow] [--session NAME]`.
    case events
    /// `stream-search serve [--listen HOST:PORT] [options]`.
    case serve
    /// `stream-search help [SUBCOMMAND]`: the help of the tool or of a subcommand, as `git help`
    /// and swift-argument-parser have it.
    case help

    /// How the command is invoked: `stream-search` or `stream-search record`.
    var name: String {
      switch self {
      case .search: toolName
      default: "\(toolName) \(rawValue)"
      }
    }

    /// The usage lines of the one-shot search, which help lists after the search's own.
    static let oneShotUsages = ["\(toolName) [search] TERM… [options]", "\(toolName) --each [--input PATH] [options]"]

    /// The usage line, without `Usage: `.
    var usage: String {
      switch self {
      case .search: "\(name) [--replay] [--input PATH] [options]"
      case .record: "\(name) [--input PATH] [--follow]"
      case .publish: "\(name) --redis URL [--input PATH] [--follow]"
      case .worker: "\(name) --redis URL [--name NAME] [options]"
      case .events: "\(name) --redis URL [--follow] [--session NAME]"
      case .serve: "\(name) [--listen HOST:PORT] [options]"
      case .help: "\(name) [SUBCOMMAND]"
      }
    }

    /// The options the command accepts, grouped as help shows them.
    var groups: [OptionGroup] {
      switch self {
      case .search: OptionTable.search
      case .record: OptionTable.record
      case .publish: OptionTable.publish
      case .worker: OptionTable.worker
      case .events: OptionTable.events
      case .serve: OptionTable.serve
      case .help: []
      }
    }

    /// The subcommand named by `word`, if any.
    static func subcommand(_ word: String?) -> Command? {
      guard let word, word != Command.search.rawValue else { return nil }
      return Command(rawValue: word)
    }

    /// The words that name a subcommand, which suggestions are drawn from.
    static let subcommandNames = allCases.filter { $0 != .search }.map(\.rawValue)
  }

  /// Parses `arguments` (without the program name).
  ///
  /// A subcommand's name as the first argument selects it, and `help [SUBCOMMAND]` gives that
  /// command's help. `--help`/`-h` anywhere before a `--` gives ``Invocation/help(_:)`` for the
  /// command, `--version` gives ``Invocation/version(_:)``, whatever else the line holds; both
  /// carry the whole text to print. A first word that is not an option and names no subcommand is
  /// reported with the subcommand it is closest to, or with where terms and files go instead.
  /// Otherwise each option is checked as it is read, so the first bad one is reported.
  ///
  /// - Parameter stdoutIsTerminal: Whether standard output is a terminal (`isatty(1)`), which
  ///   picks the default `--format`: `pretty` for a terminal, `jsonl` for a pipe or file.
  /// - Throws: ``UsageError`` with the problem and the usage line of the command.
  /// - Parameter stdinIsTerminal: Whether standard input is a terminal (`isatty(0)`), which makes
  ///   the interactive mode the default when no `--input` or `--replay` is given.
  /// - Parameter notUTF8: The positions in `arguments` of those whose bytes were not UTF-8
  ///   (``RawArguments``): an option's value among them is refused, since it was repaired on its
  ///   way in and would name another file.
  static func parse(
    _ arguments: [String], stdoutIsTerminal: Bool, stdinIsTerminal: Bool = false, notUTF8: Set<Int> = []
  ) throws(UsageError) -> Invocation {
    let command = Command.subcommand(arguments.first) ?? .search
    // `stream-search search TERM…` names the default command: its terms are never taken for a
    // mistyped subcommand.
    let explicitSearch = command == .search && arguments.first == Command.search.rawValue
    let words = command == .search && !explicitSearch ? arguments : Array(arguments.dropFirst())
    if command == .help { return try help(words) }
    let skipped = arguments.count - words.count
    for word in words.prefix(while: { $0 != "--" }) {
      if word == "--help" || word == "-h" { return .help(HelpText.render(command)) }
      if word == "--version" { return .version("\(toolName) \(version)\n") }
    }
    do throws(CommandLineError) {
      if command == .search, !explicitSearch, let first = words.first, !first.hasPrefix("-"),
        let misplaced = misplaced(first)
      {
        throw misplaced
      }
      let draft = try scan(
        words, options: command.groups.flatMap(\.options), notUTF8: Set(notUTF8.map { $0 - skipped }),
        acceptsTerms: command == .search)
      switch command {
      case .record:
        let options = draft.options
        if options.follow, options.inputPath == nil {
          throw .missingRequirement(option: "--follow", required: "--input PATH")
        }
        return .record(RecordOptions(inputPath: options.inputPath, follow: options.follow))
      case .search:
        var options = try resolve(draft, stdoutIsTerminal: stdoutIsTerminal, stdinIsTerminal: stdinIsTerminal)
        try resolveOneShot(draft, into: &options, explicit: explicitSearch)
        return .search(options)
      case .publish, .worker, .events:
        return try resolveScaleOut(command, draft)
      case .serve:
        var search = try resolve(draft, stdoutIsTerminal: false, stdinIsTerminal: false)
        search.format = .jsonl
        let serve = draft.serve
        return .serve(
          ServeOptions(
            host: serve.host, port: serve.port, allowedOrigins: serve.allowedOrigins,
            maxConnections: serve.maxConnections, redis: draft.scaleOut.redisOptions, search: search))
      case .help:
        preconditionFailure("Internal inconsistency: 'help' is answered before its words are scanned")
      }
    } catch {
      throw UsageError(error: error, command: command)
    }
  }

  /// `help`, `help SUBCOMMAND` (the words after `help`): the help of the tool or of that
  /// subcommand. `--help` after `help` is the tool's help too.
  private static func help(_ words: [String]) throws(UsageError) -> Invocation {
    do throws(CommandLineError) {
      guard let name = words.first, name != "--help", name != "-h" else { return .help(HelpText.render(.search)) }
      guard let command = Command(rawValue: name) else {
        if name.hasPrefix("-") { throw .unexpectedArgument(name) }
        throw .unknownCommand(name, suggestion: Suggestion.closest(to: name, among: Command.subcommandNames))
      }
      if words.count > 1 { throw .unexpectedArgument(words[1]) }
      return .help(HelpText.render(command))
    } catch {
      throw UsageError(error: error, command: .help)
    }
  }

  /// What a first word that is no option and no subcommand was most likely meant as, when it is
  /// not a term to search: a mistyped subcommand, or a file to read (`--input`). A name with a
  /// slash or a dot inside ("AC/DC", "Mr. Brightside") is a term; one shaped like a path
  /// ("./keys", "keys.txt") is not, and `--` before it makes it one.
  private static func misplaced(_ word: String) -> CommandLineError? {
    if let suggestion = Suggestion.closest(to: word, among: Command.subcommandNames) {
      return .unknownCommand(word, suggestion: suggestion)
    }
    let pathPrefixes = ["/", "./", "../", "~/"]
    let fileExtensions = [".txt", ".jsonl", ".json", ".tsv", ".csv", ".fifo", ".log"]
    if pathPrefixes.contains(where: word.hasPrefix) || fileExtensions.contains(where: word.lowercased().hasSuffix) {
      return .pathAsArgument(word)
    }
    return nil
  }
}
