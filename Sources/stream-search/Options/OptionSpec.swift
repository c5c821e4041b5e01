// How one option is spelled, documented and applied. The parser and the help text both read the
// same specs, so an option cannot be accepted without being documented, or the other way round.
import Pipeline

/// A value an option cannot use; `reason` completes "Invalid value 'x' for '--opt': …".
struct InvalidValue: Error, Equatable, Sendable {
  /// What was expected, e.g. `expected a whole number from 1 to 200`.
  let reason: String
}

/// Options gathered so far, before the defaults that depend on other options are settled.
struct OptionDraft: Sendable {
  /// The `--rate-limit` a user gave, if any: the default depends on `--source`.
  enum RateLimitChoice: Equatable, Sendable {
    /// Not given: ``RateLimit/itunes`` for iTunes, none otherwise.
    case sourceDefault
    /// `--rate-limit none`.
    case unlimited
    /// `--rate-limit 20/min` and the like.
    case limited(RateLimit)
  }

  /// Options with every plain default and every value given so far.
  var options = CommandLineOptions()
  /// The rate limit as given.
  var rateLimit = RateLimitChoice.sourceDefault
  /// The format as given; nil picks one by whether standard output is a terminal.
  var format: CommandLineOptions.OutputFormat?
  /// `--interactive` and `--lines` as given; neither picks by whether standard input is a terminal.
  var interactive: Bool?
  /// Both `--interactive` and `--lines` were given.
  var interactiveAndLines = false
  /// The options of the commands that run on Redis.
  var scaleOut = ScaleOutDraft()
  /// Terms given as arguments, to be searched once each.
  var terms: [String] = []
  /// `--each`: every input line is searched once.
  var each = false
  /// The options of `serve`.
  var serve = ServeDraft()
}

/// One `--option`: its name, what it does to the draft, and its line in the help.
struct OptionSpec: Sendable {
  /// What the option does when it is given.
  enum Action: Sendable {
    /// A flag: takes no value.
    case flag(@Sendable (inout OptionDraft) -> Void)
    /// Takes a value, named `label` in help (`PATH`, `DURATION`); the closure validates and stores it.
    case value(label: String, @Sendable (inout OptionDraft, String) throws(InvalidValue) -> Void)
  }

  /// The long name with its dashes, e.g. `--debounce`.
  let name: String
  /// What giving the option does.
  let action: Action
  /// One or two sentences for the help text.
  let help: String
  /// The `(default: …)` suffix's text, or nil for none.
  let defaultText: String?

  /// A flag.
  init(_ name: String, help: String, set: @escaping @Sendable (inout OptionDraft) -> Void) {
    self.name = name
    self.action = .flag(set)
    self.help = help
    self.defaultText = nil
  }

  /// An option with a value.
  init(
    _ name: String,
    _ label: String,
    help: String,
    default defaultText: String? = nil,
    apply: @escaping @Sendable (inout OptionDraft, String) throws(InvalidValue) -> Void
  ) {
    self.name = name
    self.action = .value(label: label, apply)
    self.help = help
    self.defaultText = defaultText
  }

  /// The left column of the option's help line, e.g. `--debounce DURATION`.
  var label: String {
    switch action {
    case .flag: name
    case .value(let valueLabel, _): "\(name) \(valueLabel)"
    }
  }

  /// True when the option takes a value.
  var takesValue: Bool {
    if case .value = action { true } else { false }
  }
}

/// Options shown together under one heading in the help.
struct OptionGroup: Sendable {
  /// The heading, e.g. `INPUT OPTIONS`.
  let title: String
  /// The options, in help order.
  let options: [OptionSpec]
}
