// Keystrokes written by tests: the field's text at an instant, in a session, and the JSON lines
// that `--replay` reads.
import Foundation

/// One recorded keystroke: the field's whole text at an instant, in a session.
public struct RecordedKey: Sendable, Equatable {
  /// When the key was pressed, in milliseconds since the start of the recording.
  public var at: Int64
  /// The field's whole text after the key.
  public var text: String
  /// The session (search field) it belongs to; nil for the unnamed one.
  public var session: String?

  /// Creates a keystroke.
  public init(_ at: Int64, _ text: String, session: String? = nil) {
    self.at = at
    self.text = text
    self.session = session
  }

  /// The JSON line the tool reads, without its newline.
  public var jsonLine: String {
    let session = self.session.map { #","session":\#(jsonString($0))"# } ?? ""
    return #"{"at_ms":\#(at),"term":\#(jsonString(text))\#(session)}"#
  }
}

/// The recording as the tool's input: one JSON line per key.
public func recording(_ keys: [RecordedKey]) -> Data {
  Data(keys.map { $0.jsonLine + "\n" }.joined().utf8)
}

/// `text` as a JSON string literal: quotes, backslashes and control characters escaped, every
/// other character passed through as UTF-8 unchanged (no normalisation, no `\/`).
public func jsonString(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}
