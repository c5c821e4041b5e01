// What a scanned draft means once the options are seen together: defaults that depend on other
// options or on the terminal, and the combinations no single option can check (interactive or
// lines, one-shot terms, the commands on Redis).

import ScaleOut

extension CommandLineParser {
  /// Settles the defaults that depend on other options or the terminal, then checks the
  /// combinations no single option can.
  static func resolve(_ draft: OptionDraft, stdoutIsTerminal: Bool, stdinIsTerminal: Bool)
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
  static func resolveScaleOut(_ command: Command, _ draft: OptionDraft) throws(CommandLineError) -> Invocation {
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
      return .worker(WorkerOptions(redis: redis, settings: settings, search: search, metrics: scaleOut.metrics))
    default:
      return .events(EventsOptions(redis: redis, follow: scaleOut.followEvents, session: scaleOut.session))
    }
  }

  /// Picks the interactive mode or line mode and checks the options that need one of them.
  static func resolveInteractive(
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

  /// A search of terms given as arguments, or of each input line (`--each`): checks what cannot
  /// go with it. The terms are searched once each, so nothing is read or typed: no replay, no
  /// screen, no input file.
  static func resolveOneShot(
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
}
