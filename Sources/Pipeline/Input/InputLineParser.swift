// Reads one input line: a JSON object `{"term": …, "at_ms": …, "session": …}` when its first
// non-whitespace character is `{`, else plain text that is the whole field. The common JSON shape
// is parsed straight from the UTF-8 bytes; anything else goes through JSONSerialization.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parses input lines into keystrokes.
///
/// Useful for reading the tool's standard input or a recorded trace, one line at a time:
///
/// ```swift
/// let typed = InputLineParser.parse("Tay", line: 1)
/// // .keystroke(Keystroke(term: "Tay"), line: 1)
/// let recorded = InputLineParser.parse(#"{"term": "Tay", "at_ms": 1234, "session": "u42"}"#, line: 2)
/// // .keystroke(Keystroke(term: "Tay", atMilliseconds: 1234, session: "u42"), line: 2)
/// ```
///
/// ## JSON lines
/// - `term` is required and must be a string (`null` is invalid).
/// - `at_ms` is optional: a whole number from 0 to 2^53. A number written with a zero fraction or
///   an exponent (`1234.0`, `1.234e3`) is accepted, because JSON does not tell integers from
///   floats and many writers emit `1234.0`; negative, fractional and larger values are invalid.
///   `null` is the same as absent.
/// - `session` is optional and must be a string (numbers are invalid, so that `7` and `"7"` can
///   never be two names for one session); `null` and `""` are the same as absent.
/// - Unknown fields are ignored, whatever their value. When a field is repeated, the last counts.
/// - Nesting deeper than 32 levels is invalid, checked before any recursive parsing.
/// - Whitespace before `{` is JSON whitespace (space, tab, CR, LF).
///
/// ## Plain-text lines
/// The whole line is the field's text, whitespace intact. A line of text that begins with `{` is
/// read as JSON; there is no escape for it.
///
/// ## Invalid lines
/// A line holding a NUL character (U+0000) is invalid in either format. JSON's `\u0000` escape
/// inside a string is not a raw NUL and is accepted. A term longer than ``maximumTermBytes``
/// bytes of UTF-8 is invalid in either format.
public enum InputLineParser {
  /// The reasons `parse` gives for invalid lines: the text of `InputRecord.invalid`'s reason and
  /// of the error event, which users see; the package's tests compare against them.
  package enum Reason {
    /// The line holds a raw U+0000.
    package static let nulByte = "NUL byte in line"
    /// The line starts like JSON but is not valid JSON.
    package static let invalidJSON = "invalid JSON"
    /// The JSON nests deeper than `maximumDepth`.
    package static let tooDeep = "JSON nested deeper than 32 levels"
    /// The JSON is valid but not an object.
    package static let notAnObject = "JSON value is not an object"
    /// The object has no `term`.
    package static let missingTerm = "missing \"term\""
    /// `term` is null.
    package static let nullTerm = "\"term\" is null"
    /// `term` is not a string.
    package static let termNotString = "\"term\" must be a string"
    /// `at_ms` is not a number.
    package static let atNotNumber = "\"at_ms\" must be a number"
    /// `at_ms` is negative.
    package static let atNegative = "\"at_ms\" must not be negative"
    /// `at_ms` has a fraction.
    package static let atFractional = "\"at_ms\" must be a whole number"
    /// `at_ms` is above 2^53.
    package static let atTooLarge = "\"at_ms\" must be at most 2^53"
    /// `session` is not a string.
    package static let sessionNotString = "\"session\" must be a string"
    /// A number other than `at_ms` is too large for any reader (`1e400`).
    package static let numberOutOfRange = "a number in the line is too large to read"
    /// The term has more than `maximumTermBytes` bytes of UTF-8.
    package static let termTooLong = "term longer than \(InputLineParser.maximumTermBytes) bytes"
  }

  /// The longest term accepted, in bytes of UTF-8: far beyond any search a person types, and
  /// short enough that a request's URL stays small (a byte can take three once encoded).
  public static let maximumTermBytes = 1_024

  /// The deepest nesting of arrays and objects a JSON line may have.
  public static let maximumDepth = 32

  /// The largest `at_ms` accepted: 2^53, the last integer every JSON reader holds exactly.
  public static let maximumMilliseconds: Int64 = 1 << 53

  /// Parses line number `number`'s text (without its line terminator) into a keystroke, or the
  /// reason it is invalid.
  public static func parse(_ line: String, line number: Int) -> InputRecord {
    var bytes = line
    return bytes.withUTF8 { parse(utf8: $0, line: number, text: { line }) }
  }

  /// The same for a line's bytes, valid UTF-8; `text` makes them a `String`, called only for a
  /// plain-text line, whose text is its term. A JSON line is parsed from the bytes themselves.
  static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, line number: Int, text: () -> String) -> InputRecord {
    switch parseFormat(bytes, text: text) {
    case .failure(let refusal):
      return .invalid(line: number, reason: refusal.reason)
    case .success(var keystroke):
      if keystroke.term.utf8.count > maximumTermBytes { return .invalid(line: number, reason: Reason.termTooLong) }
      // An empty name names no session, like null: one rule everywhere a session is looked at.
      if keystroke.session == "" { keystroke.session = nil }
      return .keystroke(keystroke, line: number)
    }
  }

  /// The line read in its format, before the term's length is checked.
  private static func parseFormat(_ bytes: UnsafeBufferPointer<UInt8>, text: () -> String) -> LineReading {
    if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil {
      return .failure(LineRefusal(Reason.nulByte))
    }
    var index = 0
    while index < bytes.count, JSONLineFastParser.isWhitespace(bytes[index]) { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
      return .success(Keystroke(term: text()))
    }
    if let parsed = JSONLineFastParser.parse(bytes) { return parsed }
    return FoundationLineParser.parse(bytes)
  }
}
