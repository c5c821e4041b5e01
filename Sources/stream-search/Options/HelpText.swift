// The `--help` text, in swift-argument-parser's layout: OVERVIEW, USAGE, option groups with
// labels padded to one column and `(default: …)` suffixes, `-h, --help` last, then SUBCOMMANDS
// and EXIT STATUS (the statuses the command can end with). Built from the option table, so every
// accepted option is documented.
import Foundation

/// Renders the help of each command.
enum HelpText {
  /// Lines are wrapped to fit this many columns.
  static let width = 80

  /// The whole help of `command`, ending with a newline.
  static func render(_ command: CommandLineParser.Command) -> String {
    var sections: [String] = []
    switch command {
    case .search:
      sections.append("OVERVIEW: Turn search-field keystrokes into a stream of search results.")
      sections.append(
        wrap(
          "Reads the text of a search field, one line per keystroke, from standard input or a file. "
            + "Waits for typing to pause, skips repeated terms, cancels searches that are superseded, "
            + "answers from a cache or a source, and writes events as JSON Lines. When standard input is a "
            + "terminal, it shows a search screen instead: type, watch results arrive, press Enter to print one. "
            + "Terms given as arguments (after '--' if they look like options), or each input line with "
            + "--each, are searched once each, and only their results are written, in order."
        ))
      var usages = CommandLineParser.Command.allCases.map(\.usage)
      usages.insert(contentsOf: CommandLineParser.Command.oneShotUsages, at: 1)
      sections.append("USAGE: " + usages.joined(separator: "\n       "))
    case .record:
      sections.append("OVERVIEW: Record typing for '\(CommandLineParser.toolName) --replay'.")
      sections.append(
        wrap(
          "Stamps each input line with at_ms, the milliseconds since the recording started by the real "
            + "clock, and writes it as a JSON Lines object {\"at_ms\": …, \"term\": …}."
        ))
      sections.append("USAGE: " + command.usage)
    case .serve:
      sections.append("OVERVIEW: Serve search-as-you-type over HTTP: a search page, WebSockets, /search.")
      sections.append(
        wrap(
          "GET / is the search page; GET /ws is one WebSocket per search field (each text message the field's "
            + "text, each message back one event as JSON); GET /search?q=TERM answers one search; GET /healthz "
            + "and GET /metrics (Prometheus) are for operators. The first line on standard error names the "
            + "address, as http://HOST:PORT. With --redis URL it is a stateless gateway to the workers on that "
            + "Redis: each connection is a session of its own, published as 'publish' does, and the workers' "
            + "events for it come back on it; the search options are then the workers'."
        ))
      sections.append("USAGE: " + command.usage)
    case .help:
      sections.append("OVERVIEW: Show the help of '\(CommandLineParser.toolName)' or of one of its subcommands.")
      sections.append("USAGE: " + command.usage)
    case .publish, .worker, .events:
      sections.append("OVERVIEW: " + Self.scaleOutOverview(command))
      sections.append(wrap(Self.scaleOutDiscussion(command)))
      sections.append("USAGE: " + command.usage)
    }
    let builtIns = [
      Entry(label: "--version", text: "Show the version."),
      Entry(label: "-h, --help", text: "Show help information."),
    ]
    var tables: [(title: String, entries: [Entry])] = command.groups.map { group in
      (
        group.title,
        group.options.map { option in
          Entry(label: option.label, text: option.help + (option.defaultText.map(defaultSuffix) ?? ""))
        }
      )
    }
    // `help` takes no option: `help --help` is the tool's help.
    if command != .help { tables.append(("OPTIONS", builtIns)) }
    if command == .search {
      tables.append(
        (
          "SUBCOMMANDS",
          [
            Entry(label: "record", text: "Stamp each input line with at_ms from the real clock and write JSON Lines."),
            Entry(label: "publish", text: "Append keystrokes to their shards on Redis, for workers on many machines."),
            Entry(label: "worker", text: "Search the keystrokes of a share of the shards on Redis until stopped."),
            Entry(label: "events", text: "Print the events the workers committed, each once, in order per session."),
            Entry(label: "help", text: "Show this help, or a subcommand's: 'help record'."),
          ]
        ))
      tables.append(("INTERACTIVE KEYS", interactiveKeys))
    }
    tables.append(
      (
        "EXIT STATUS",
        ExitStatus.statuses(of: command).map { Entry(label: String($0.rawValue), text: $0.meaning(for: command)) }
      ))
    let column = 2 + (tables.flatMap(\.entries).map(\.label.count).max() ?? 0) + 2
    for table in tables {
      sections.append("\(table.title):\n" + table.entries.map { render($0, column: column) }.joined(separator: "\n"))
    }
    return sections.joined(separator: "\n\n") + "\n"
  }

  /// The one-line overview of a command on Redis.
  private static func scaleOutOverview(_ command: CommandLineParser.Command) -> String {
    switch command {
    case .publish: "Append keystrokes to Redis for 'stream-search worker'."
    case .worker: "Run the search pipeline over a share of the keystrokes on Redis."
    default: "Print the events the workers committed to Redis."
    }
  }

  /// What a command on Redis does, for its help.
  private static func scaleOutDiscussion(_ command: CommandLineParser.Command) -> String {
    switch command {
    case .publish:
      "Reads keystroke lines as the tool does (plain text or JSON, session optional; a bad line is an "
        + "input_error event on standard output) and appends each to the stream of its shard: "
        + "crc32(session) mod the shard count. Exits once Redis has acknowledged every keystroke."
    case .worker:
      "Holds a fair share of the shards by lease (renewed every tenth of --lease), claims the keystrokes a "
        + "departed worker left unacknowledged, runs the same pipeline as a local run over them, and commits "
        + "each search's end together with the acknowledgement of its keystrokes. Runs until SIGINT or "
        + "SIGTERM, which give its shards back at once."
    default:
      "Prints the events as JSON Lines, the objects a local run writes (seq numbered by this command, "
        + "at_ms the worker's clock in milliseconds since 1970), in order per session and each once. "
        + "Without --follow it prints what is there and exits."
    }
  }

  /// The keys of the interactive screen.
  private static let interactiveKeys = [
    Entry(label: "Typing, Backspace", text: "Edit the search field; Ctrl-W deletes a word, Ctrl-U the line."),
    Entry(label: "Left, Right, Home, End", text: "Move the cursor in the field (also Ctrl-B, Ctrl-F, Ctrl-A, Ctrl-E)."),
    Entry(label: "Up, Down, Ctrl-P, Ctrl-N", text: "Move the selection."),
    Entry(label: "Enter", text: "Print the selected result as one JSON line on standard output and exit 0."),
    Entry(label: "Esc, Ctrl-C", text: "Leave without printing anything (exit 130)."),
    Entry(label: "Ctrl-L", text: "Redraw the screen."),
  ]

  /// ` (default: text)`, with its spaces made non-breaking so wrapping keeps it on one line
  /// (``wrapLines(_:width:)`` turns them back into spaces).
  private static func defaultSuffix(_ text: String) -> String {
    " " + "(default: \(text))".replacingOccurrences(of: " ", with: nonBreakingSpace)
  }

  /// Joins words that wrapping must not separate.
  private static let nonBreakingSpace = "\u{00A0}"

  /// One row of a two-column table.
  private struct Entry {
    /// The left column, e.g. `--debounce DURATION`.
    let label: String
    /// The right column, wrapped to the width.
    let text: String
  }

  /// `entry` as indented label, padding to `column`, then its text wrapped under itself.
  private static func render(_ entry: Entry, column: Int) -> String {
    let lead = "  " + entry.label
    let lines = wrapLines(entry.text, width: width - column)
    let padding = String(repeating: " ", count: column - lead.count)
    let indent = String(repeating: " ", count: column)
    return lead + padding + lines.joined(separator: "\n" + indent)
  }

  /// `text` as lines of at most `width` columns.
  private static func wrap(_ text: String) -> String {
    wrapLines(text, width: width).joined(separator: "\n")
  }

  /// Breaks `text` at spaces into lines no longer than `width`; a longer word gets a line of its own.
  private static func wrapLines(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines.map { $0.replacingOccurrences(of: nonBreakingSpace, with: " ") }
  }
}
