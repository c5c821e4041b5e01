// Reads `stream-search`'s arguments into an `Invocation`: help, version, a record run or a search
// run with validated options. Conventions follow swift-argument-parser: `--opt value` and
// `--opt=value`, `--help`/`-h` and `--version` anywhere, `help [SUBCOMMAND]`, a repeated option's
// last value wins, and a mistyped option or subcommand gets a suggestion.

import ScaleOut

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
            maxConnections: serve.maxConnections, search: search))
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

  /// A search of terms given as arguments, or of each input line (`--each`): checks what cannot
  /// go with it. The terms are searched once each, so nothing is read or typed: no replay, no
  /// screen, no input file.
  private static func resolveOneShot(
    _ draft: OptionDraft, into options: inout CommandLineOptions, explicit: Bool
  ) throws(CommandLineError) {
    let terms = draft.terms
    if let first = terms.first {
      if draft.each { throw .conflictingOptions("--each", first) }
      if options.replay { throw .termAsArgument(first) }
      if options.inputPath != nil { throw .termAsArgument(first) }
      if draft.interactive == true { throw .conflictingOptions("--interactive", first) }
      options.oneShot = .terms(terms)
    } else if draft.each {
      if options.replay { throw .conflictingOptions("--each", "--replay") }
      if draft.interactive == true { throw .conflictingOptions("--each", "--interactive") }
      options.oneShot = .eachLine
    } else if explicit {
      throw .missingOption("TERM or --each")
    } else {
      return
    }
    options.interactive = false
    if options.recordPath != nil { throw .recordWithoutScreen }
  }

  /// Applies each option in `words` to a draft, in order, so the last of a repeated option wins.
  /// With `acceptsTerms`, a word that is no option (and every word after `--`) is a term.
  private static func scan(_ words: [String], options specs: [OptionSpec], notUTF8: Set<Int>, acceptsTerms: Bool)
    throws(CommandLineError) -> OptionDraft
  {
    let specsByName = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var draft = OptionDraft()
    var index = words.startIndex
    while index < words.endIndex {
      let word = words[index]
      let wordIsUTF8 = !notUTF8.contains(index)
      index += 1
      if word == "--" {
        // Terms after the terminator may look like options; for other commands, anything there
        // is unexpected.
        if index < words.endIndex, !acceptsTerms { throw .unexpectedArgument(words[index]) }
        draft.terms += words[index...]
        break
      }
      guard word.hasPrefix("-"), word != "-" else {
        guard acceptsTerms else { throw .unexpectedArgument(word) }
        draft.terms.append(word)
        continue
      }
      let (name, inlineValue) = splitInlineValue(word)
      if let inlineValue, name == "--help" || name == "--version" {
        // Plain `--help` and `--version` never get here: `parse` answers them before scanning.
        throw .unexpectedValue(inlineValue, option: name)
      }
      guard let spec = specsByName[name] else {
        let known = specs.map(\.name) + ["--version", "--help"]
        throw .unknownOption(name, suggestion: Suggestion.closest(to: name, among: known))
      }
      switch spec.action {
      case .flag(let set):
        if let inlineValue { throw .unexpectedValue(inlineValue, option: name) }
        set(&draft)
      case .value(_, let apply):
        let value: String
        let valueIsUTF8: Bool
        if let inlineValue {
          (value, valueIsUTF8) = (inlineValue, wordIsUTF8)
        } else if index < words.endIndex, !looksLikeOption(words[index]) {
          (value, valueIsUTF8) = (words[index], !notUTF8.contains(index))
          index += 1
        } else {
          throw .missingValue(option: name)
        }
        guard valueIsUTF8 else {
          throw .invalidValue(
            value, option: name,
            reason: "it is not valid UTF-8, and every argument is read as UTF-8 (rename the file, or name it "
              + "through a link whose name is)")
        }
        do {
          try apply(&draft, value)
        } catch {
          throw .invalidValue(value, option: name, reason: error.reason)
        }
      }
    }
    return draft
  }

  /// Settles the defaults that depend on other options or the terminal, then checks the
  /// combinations no single option can.
  private static func resolve(_ draft: OptionDraft, stdoutIsTerminal: Bool, stdinIsTerminal: Bool)
    throws(CommandLineError) -> CommandLineOptions
  {
    var options = draft.options
    options.format = draft.format ?? (stdoutIsTerminal ? .pretty : .jsonl)
    switch draft.rateLimit {
    case .sourceDefault: options.pipeline.rateLimit = options.source == .itunes ? .itunes : nil
    case .unlimited: options.pipeline.rateLimit = nil
    case .limited(let limit): options.pipeline.rateLimit = limit
    }
    // `--retries 0`: one attempt is no retrying at all, which the pipeline spells as no policy.
    if options.pipeline.retry?.maxAttempts == 1 { options.pipeline.retry = nil }
    if options.verbose, options.quiet {
      throw .conflictingOptions("--verbose", "--quiet")
    }
    if options.follow, options.inputPath == nil {
      // Standard input cannot be re-read past its end; following needs a file to watch.
      throw .missingRequirement(option: "--follow", required: "--input PATH")
    }
    if options.follow, options.replay {
      // A replay reads its recording to the end in virtual time; following a FIFO would make it
      // wait on the real clock for writers that may never come.
      throw .conflictingOptions("--replay", "--follow")
    }
    try resolveInteractive(draft, into: &options, stdinIsTerminal: stdinIsTerminal)
    return options
  }

  /// Checks what the commands on Redis need: `--redis`, and a worker's pipeline options as a
  /// local run resolves them (the rate limit's default depends on the source).
  private static func resolveScaleOut(_ command: Command, _ draft: OptionDraft) throws(CommandLineError) -> Invocation {
    let scaleOut = draft.scaleOut
    guard let endpoint = scaleOut.endpoint else { throw .missingOption("--redis URL") }
    // The prefix was checked when it was read; the default is valid.
    let keys = (try? ScaleOutKeys(prefix: scaleOut.prefix)) ?? (try? ScaleOutKeys(prefix: ScaleOutKeys.defaultPrefix))
    guard let keys else { throw .missingOption("--redis-prefix NAME") }
    let redis = RedisOptions(endpoint: endpoint, keys: keys, shards: scaleOut.shards)
    switch command {
    case .publish:
      let options = draft.options
      if options.follow, options.inputPath == nil {
        throw .missingRequirement(option: "--follow", required: "--input PATH")
      }
      return .publish(
        PublishOptions(
          redis: redis, inputPath: options.inputPath, follow: options.follow, maxLineBytes: options.maxLineBytes))
    case .worker:
      var search = try resolve(draft, stdoutIsTerminal: false, stdinIsTerminal: false)
      search.format = .jsonl
      let settings = WorkerSettings(
        name: scaleOut.name ?? ScaleOutDraft.defaultWorkerName(), lease: scaleOut.lease,
        eventsKept: scaleOut.eventsKept)
      return .worker(WorkerOptions(redis: redis, settings: settings, search: search))
    default:
      return .events(EventsOptions(redis: redis, follow: scaleOut.followEvents, session: scaleOut.session))
    }
  }

  /// Picks the interactive mode or line mode and checks the options that need one of them.
  private static func resolveInteractive(
    _ draft: OptionDraft, into options: inout CommandLineOptions, stdinIsTerminal: Bool
  ) throws(CommandLineError) {
    if draft.interactiveAndLines { throw .conflictingOptions("--interactive", "--lines") }
    if draft.interactive == true {
      if options.replay { throw .conflictingOptions("--interactive", "--replay") }
      if options.inputPath != nil { throw .conflictingOptions("--interactive", "--input") }
    }
    options.interactive = draft.interactive ?? (stdinIsTerminal && !options.replay && options.inputPath == nil)
    if options.recordPath != nil, !options.interactive {
      // Lines from a pipe or a file are recorded by the `record` subcommand, not by this option.
      throw .recordWithoutScreen
    }
  }

  /// `--name=value` → (`--name`, `value`); anything else → (word, nil). Only long options take
  /// `=`, so `-h=x` is an unknown option rather than `-h` with a value.
  private static func splitInlineValue(_ word: String) -> (name: String, value: String?) {
    guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
  }

  /// True for words read as options rather than values: `--anything` and `-` then a letter.
  /// `-` alone and `-5` stay values, so they reach the value's own check.
  private static func looksLikeOption(_ word: String) -> Bool {
    if word.hasPrefix("--") { return true }
    return word.hasPrefix("-") && word.dropFirst().first?.isLetter == true
  }
}
