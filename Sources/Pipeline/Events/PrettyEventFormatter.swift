// Renders events for people at a terminal: one short line per event (results add a few indented
// item lines), optionally coloured. Machines read `JSONLinesEncoder`'s output instead.

/// Formats `SearchEvent`s as short human-readable text.
///
/// Useful for `--pretty` output while watching a run:
///
/// ```
///   1.176s  search    "taylor"
///   1.577s  results   "taylor"  load 401ms  music 25, movies 3, podcasts failed (timedOut)
///                       music: Shake It Off — Taylor Swift · 2014
///                              Love Story — Taylor Swift · 2008
///                              Blank Space — Taylor Swift · 2014
///                       movies: Taylor Made — Ann Lee · 2011
///   2.082s  cleared
/// ```
///
/// The time is seconds since the start of the run; a session, when named, follows it in brackets.
/// Each item shown is its `SearchItem/displayText` (title — artist · year), one a line, as the
/// interactive screen shows it, so that items of one title can be told apart.
/// Control characters in terms and titles are shown escaped (`\u{1B}`), so input cannot drive the
/// terminal. Colour (ANSI escapes on the event's label) is off unless asked for.
public struct PrettyEventFormatter: Sendable {
  /// Whether to colour the event's label with ANSI escapes.
  public var colors: Bool
  /// How many items of each category to show under a `results` line.
  public var titlesPerCategory: Int

  /// Creates a formatter; colour is off by default.
  public init(colors: Bool = false, titlesPerCategory: Int = 3) {
    self.colors = colors
    self.titlesPerCategory = titlesPerCategory
  }

  /// The text for `event`: one line, plus indented title lines for `results`; no final newline.
  public func format(_ event: SearchEvent) -> String {
    var head = PrettyEventFormatter.time(event.atMilliseconds) + "  " + label(for: event.kind)
    if let session = event.session { head += "[" + PrettyEventFormatter.visible(session) + "] " }
    switch event.kind {
    case .search(let term):
      return head + PrettyEventFormatter.quoted(term)
    case .results(let term, let source, let categories, let elapsed):
      let counts = categories.map(PrettyEventFormatter.count)
      var lines = [
        head + PrettyEventFormatter.quoted(term) + "  \(source.rawValue) \(elapsed)ms  "
          + counts.joined(separator: ", ")
      ]
      let indent = String(repeating: " ", count: 22)
      for result in categories {
        guard case .items(let items, _) = result.outcome, !items.isEmpty, titlesPerCategory > 0 else { continue }
        // The category names the first item's line; the others line up under it.
        var lead = indent + result.category.rawValue + ": "
        for item in items.prefix(titlesPerCategory) {
          lines.append(lead + PrettyEventFormatter.visible(item.displayText))
          lead = String(repeating: " ", count: lead.count)
        }
      }
      return lines.joined(separator: "\n")
    case .partial(let term, let result):
      return head + PrettyEventFormatter.quoted(term) + "  " + PrettyEventFormatter.count(result)
    case .waiting(let term, let category, let wait):
      return head + PrettyEventFormatter.quoted(term) + "  \(category) waits \(wait)ms for the rate limit"
    case .cleared:
      return head.trimmingTrailingSpaces()
    case .cancelled(let term, let reason):
      return head + PrettyEventFormatter.quoted(term) + " (\(reason.rawValue))"
    case .error(let term, let error):
      return head + PrettyEventFormatter.quoted(term) + "  \(error.kind): "
        + PrettyEventFormatter.visible(error.message)
    case .inputError(let line, let reason):
      return head + "line \(line): " + PrettyEventFormatter.visible(reason)
    case .summary(let summary):
      return head + "\(summary.inputLines) lines (\(summary.inputErrors) bad), \(summary.searches) searches, "
        + "\(summary.results) results, \(summary.errors) errors, \(summary.cancellations) cancelled, "
        + "\(summary.requests) requests, \(summary.cacheHits) cache hits"
        + (summary.diskTier.map { ", \(summary.diskHits) disk hits (disk \($0.rawValue))" } ?? "")
    }
  }

  /// The kind's label padded to a column, coloured when asked.
  private func label(for kind: SearchEvent.Kind) -> String {
    let (name, color): (String, String) =
      switch kind {
      case .search: ("search", "36")  // cyan
      case .results: ("results", "32")  // green
      case .partial: ("partial", "32")  // green
      case .waiting: ("waiting", "33")  // yellow
      case .cleared: ("cleared", "2")  // dim
      case .cancelled: ("cancelled", "33")  // yellow
      case .error: ("error", "31")  // red
      case .inputError: ("bad line", "31")  // red
      case .summary: ("summary", "1")  // bold
      }
    // Pad outside the escapes so that columns line up with colour on or off.
    let padding = String(repeating: " ", count: max(1, 10 - name.count))
    return (colors ? "\u{1B}[\(color)m" + name + "\u{1B}[0m" : name) + padding
  }

  /// One category's part of a `results` or `partial` line: "music 25" or "podcasts failed (timedOut)".
  static func count(_ result: CategoryResult) -> String {
    switch result.outcome {
    case .items(let items, _): "\(result.category.rawValue) \(items.count)"
    case .failed(let error): "\(result.category.rawValue) failed (\(error.kind))"
    }
  }

  /// "1.176s" right-aligned in eight columns.
  static func time(_ milliseconds: Int64) -> String {
    let sign = milliseconds < 0 ? "-" : ""
    let magnitude = milliseconds.magnitude
    let fraction = String(magnitude % 1000)
    let padded = String(repeating: "0", count: 3 - fraction.count) + fraction
    let text = sign + String(magnitude / 1000) + "." + padded + "s"
    return String(repeating: " ", count: max(0, 8 - text.count)) + text
  }

  /// `text` in double quotes, with quotes and control characters escaped.
  static func quoted(_ text: String) -> String {
    "\"" + visible(text).replacing("\"", with: "\\\"") + "\""
  }

  /// `text` with C0 and C1 control characters and DEL shown as `\u{XX}`.
  static func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var result = self
    while result.last == " " { result.removeLast() }
    return result
  }
}
