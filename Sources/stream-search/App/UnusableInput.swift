// A run whose input had lines and not one that could be used has failed, though every line was
// reported: a replay of plain text (no `at_ms`), a file of some other format. Its events are
// written as for any run, the summary last; then one line on standard error says so, and the
// status is 65 (`EX_DATAERR`), so a script does not take an empty answer for a good one.
import Pipeline
import Synchronization

/// The first bad input line of a run, kept from its `input_error` event for the message that ends
/// a run of nothing but bad lines.
final class FirstBadLine: Sendable {
  private let kept = Mutex<(line: Int, reason: String)?>(nil)

  /// Keeps `event`'s line and reason when it is the run's first `input_error`.
  func note(_ event: SearchEvent) {
    guard case .inputError(let line, let reason) = event.kind else { return }
    kept.withLock { kept in
      if kept == nil { kept = (line, reason) }
    }
  }

  /// The first bad line, if there was one.
  var value: (line: Int, reason: String)? { kept.withLock { $0 } }
}

/// The rule that fails a run of nothing but bad lines.
enum UnusableInput {
  /// The `Error:` message for a run whose `summary` counts input lines and every one of them bad,
  /// naming the first (`firstBad`); nil for any other run, an empty input included. A replay's
  /// message says what a recording's lines look like.
  static func message(
    summary: RunSummary, firstBad: (line: Int, reason: String)?, replay: Bool
  ) -> String? {
    guard summary.inputLines > 0, summary.inputErrors == summary.inputLines else { return nil }
    let verb = replay ? "replayed" : "used"
    var message =
      summary.inputLines == 1
      ? "the one input line could not be \(verb)" : "none of the \(summary.inputLines) input lines could be \(verb)"
    if let firstBad { message += " (line \(firstBad.line): \(firstBad.reason))" }
    if replay {
      message += "; a recording's lines are {\"at_ms\": …, \"term\": …}, as 'stream-search record' writes them"
    }
    return message
  }
}
