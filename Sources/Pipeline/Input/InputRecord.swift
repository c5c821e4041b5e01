// What enters the pipeline: one input line, read. The one record every way in builds (live input,
// replay, the interactive field, tests), once, from what the line reader delivered.
import LineIO
import Streams

/// One input line, read: a keystroke, or the reason the line is not one.
///
/// Built once per line with ``init(_:)`` from the line reader's `InputLine` (or with
/// ``InputLineParser/parse(_:line:)`` from text); a `.invalid` record becomes an `input_error`
/// event and the run goes on.
public enum InputRecord: Sendable, Equatable {
  /// The search field's text after a keystroke, with its session and instant if the line named
  /// them, and the line's number.
  case keystroke(Keystroke, line: Int)
  /// A line that is not a keystroke, and why.
  case invalid(line: Int, reason: String)

  /// Reads `line`: its text parsed as a keystroke, or the reason it is not one (bad JSON,
  /// invalid UTF-8, too long).
  public init(_ line: InputLine) {
    switch line.content {
    case .text(let text):
      self = InputLineParser.parse(text, line: line.number)
    case .invalidUTF8(let byteCount):
      self = .invalid(line: line.number, reason: Self.invalidUTF8(byteCount))
    case .tooLong(let byteCount):
      self = .invalid(line: line.number, reason: Self.tooLong(byteCount))
    }
  }

  /// Reads `line` from its bytes, as ``init(_:)`` reads it from an `InputLine`: a JSON line is
  /// parsed straight from them, so the line itself never becomes a `String`.
  package init(_ line: LineBytes) {
    switch line.content {
    case .text(let bytes, let decoded):
      self = InputLineParser.parse(utf8: bytes, line: line.number) {
        decoded ?? String(decoding: bytes, as: UTF8.self)
      }
    case .invalidUTF8(let byteCount):
      self = .invalid(line: line.number, reason: Self.invalidUTF8(byteCount))
    case .tooLong(let byteCount):
      self = .invalid(line: line.number, reason: Self.tooLong(byteCount))
    }
  }

  private static func invalidUTF8(_ byteCount: Int) -> String { "invalid UTF-8 (\(byteCount) bytes)" }

  private static func tooLong(_ byteCount: Int) -> String {
    "line too long (\(byteCount) bytes; the maximum is set by --max-line-bytes)"
  }

  /// The line's number, from 1.
  public var line: Int {
    switch self {
    case .keystroke(_, let line), .invalid(let line, _): line
    }
  }
}
