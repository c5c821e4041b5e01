// Lays the interactive state out as a screen: the prompt with the field, the status line, then
// the results grouped by category with the selected row highlighted, scrolled to keep it visible.
import Pipeline

/// Builds the frame of an interactive session.
///
/// ```
/// > taylor
///   "taylor": 4 results from catalog in 0 ms · 3 requests
/// music · 2
/// > Shake It Off — Taylor Swift · 2014
///   Love Story — Taylor Swift · 2008
/// movies · 1
///   Taylor Made — Ann Lee · 2011
/// podcasts · failed: no answer within the timeout
/// ```
struct InteractiveView {
  /// The prompt before the field.
  static let prompt = "> "

  /// The frame for `state` on a terminal of `size`; `budgetLeft` is the rate budget's remaining
  /// requests when there is a rate limit.
  static func frame(_ state: InteractiveState, size: TerminalSize, budgetLeft: Int?) -> ScreenFrame {
    let (field, cursorColumn) = visibleField(state.field, columns: size.columns - 1)
    var lines = [
      ScreenLine(text: prompt + field),
      ScreenLine(text: "  " + statusText(state, budgetLeft: budgetLeft), style: .dim),
    ]
    lines += visibleBody(state, rows: size.rows - lines.count)
    return ScreenFrame(lines: lines, cursorRow: 0, cursorColumn: cursorColumn)
  }

  /// The part of the field that fits, scrolled so that the cursor stays on screen, and the
  /// cursor's column.
  private static func visibleField(_ field: FieldEditor, columns: Int) -> (String, Int) {
    let room = max(1, columns - prompt.count)
    var text = Substring(field.text)
    var before = field.cursorColumn
    while before >= room, let first = text.first {
      before -= TextWidth.columns(of: first)
      text = text.dropFirst()
    }
    return (visible(String(text)), prompt.count + before)
  }

  /// The status line's words, led by a word that the field is full when typing did not fit.
  static func statusText(_ state: InteractiveState, budgetLeft: Int?) -> String {
    let status = searchStatusText(state, budgetLeft: budgetLeft)
    guard state.field.wasCut else { return status }
    return "the field is full (\(FieldEditor.maximumBytes) bytes) · " + status
  }

  /// The status line's words about the search.
  private static func searchStatusText(_ state: InteractiveState, budgetLeft: Int?) -> String {
    var parts: [String]
    switch state.status {
    case .idle:
      return state.field.text.isEmpty
        ? "Type to search · ↑↓ select · Enter prints the selection · Esc quits"
        : "waiting for typing to pause…"
    case .searching(let term):
      parts = ["searching \(quoted(term))…"]
    case .waitingForBudget(let term, let milliseconds):
      // Whole seconds, rounded up: the estimate is a promise not to be early, not a countdown.
      let seconds = (milliseconds + 999) / 1_000
      parts = ["searching \(quoted(term))… waiting up to \(seconds) s for the rate budget"]
    case .answered(let term, let count, let origins, let elapsed):
      let from = origins.isEmpty ? "" : " from " + origins.map(words).joined(separator: " and ")
      parts = ["\(quoted(term)): \(count) result\(count == 1 ? "" : "s")\(from) in \(elapsed) ms"]
      // The last error in words: a category that failed while others answered.
      for result in state.results {
        if case .failed(let error) = result.outcome {
          parts.append("\(result.category.rawValue) failed: \(visible(error.message))")
        }
      }
    case .failed(let term, let message):
      parts = ["\(quoted(term)): error: \(visible(message))"]
    }
    parts.append("\(state.requests) request\(state.requests == 1 ? "" : "s")")
    // What this process alone has left would contradict a wait that other processes' requests
    // cause through the shared budget: while a search waits, the wait is the news.
    var waits = false
    if case .waitingForBudget = state.status { waits = true }
    if let budgetLeft, !waits { parts.append("\(budgetLeft) left in the rate budget") }
    return parts.joined(separator: " · ")
  }

  /// The category headings and item rows, scrolled so the selected row is visible.
  private static func visibleBody(_ state: InteractiveState, rows: Int) -> [ScreenLine] {
    var lines: [ScreenLine] = []
    var selectedLine = 0
    var itemIndex = 0
    for result in state.results {
      switch result.outcome {
      case .items(let items, _):
        lines.append(ScreenLine(text: "\(result.category.rawValue) · \(items.count)", style: .bold))
        for item in items {
          let selected = itemIndex == state.selection
          if selected { selectedLine = lines.count }
          lines.append(ScreenLine(text: (selected ? "> " : "  ") + row(item), style: selected ? .selected : .plain))
          itemIndex += 1
        }
      case .failed(let error):
        lines.append(ScreenLine(text: "\(result.category.rawValue) · failed: \(visible(error.message))", style: .bold))
      }
    }
    guard rows > 0 else { return [] }
    let first = max(0, selectedLine - rows + 1)
    return Array(lines.dropFirst(first).prefix(rows))
  }

  /// `Title — Artist · 2014`: what a person needs to tell results apart (`SearchItem.displayText`,
  /// as the pretty output shows it too).
  static func row(_ item: SearchItem) -> String {
    visible(item.displayText)
  }

  private static func words(_ origin: ItemOrigin) -> String {
    switch origin {
    case .cache: "cache"
    case .disk: "the disk cache"
    case .network: "network"
    case .catalog: "catalog"
    case .stale: "a stale cache entry"
    }
  }

  private static func quoted(_ term: String) -> String { "\"" + visible(term) + "\"" }

  /// Text from elsewhere with its control characters escaped, so it cannot drive the terminal.
  private static func visible(_ text: String) -> String { text.escapingControlCharacters }
}
