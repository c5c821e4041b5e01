// What one input line means: the search field's text after a keystroke (with, optionally, when
// it happened and whose field it is), or why the line could not be read.

/// The search field's whole text after one keystroke, as read from one input line.
public struct Keystroke: Sendable, Equatable {
  /// The field's text as typed, whitespace intact; `SearchTerm` trims it later. "" is a clear.
  public var term: String
  /// When the keystroke happened, in milliseconds since the start of the recording; nil when the
  /// line did not say (plain-text lines never do), and the keystroke counts as arriving when read.
  public var atMilliseconds: Int64?
  /// Whose search field it is; nil when the line named no session.
  public var session: String?
  /// The session ends with this keystroke: its term is searched at once, with no quiet period,
  /// and nothing later cancels that search; a later keystroke naming the session starts a new
  /// one. What a one-shot search of each input line (`stream-search --each`) sends.
  public var endsSession: Bool

  /// Creates a keystroke.
  public init(term: String, atMilliseconds: Int64? = nil, session: String? = nil, endsSession: Bool = false) {
    self.term = term
    self.atMilliseconds = atMilliseconds
    self.session = session
    self.endsSession = endsSession
  }
}

/// A line's reading inside the parsers: the keystroke, or why the line is not one.
typealias LineReading = Result<Keystroke, LineRefusal>

/// Why a line is not a keystroke (one of the texts `InputLineParser` gives).
struct LineRefusal: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
