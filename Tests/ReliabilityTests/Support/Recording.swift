// Recordings for `--replay`, written by the tests: keystrokes as JSON lines with at_ms and session.
import Foundation

/// One recorded keystroke: the field's whole text at an instant, in a session.
struct RecordedKey: Sendable, Equatable {
  var at: Int64
  var text: String
  var session: String?

  init(_ at: Int64, _ text: String, session: String? = nil) {
    self.at = at
    self.text = text
    self.session = session
  }

  /// The JSON line the tool reads, without its newline.
  var jsonLine: String {
    let session = self.session.map { #","session":\#(jsonString($0))"# } ?? ""
    return #"{"at_ms":\#(at),"term":\#(jsonString(text))\#(session)}"#
  }
}

/// The recording as the tool's input: one JSON line per key.
func recording(_ keys: [RecordedKey]) -> Data {
  Data(keys.map { $0.jsonLine + "\n" }.joined().utf8)
}

/// `text` as a JSON string literal: quotes, backslashes and control characters escaped, every
/// other character passed through as UTF-8 unchanged (no normalisation, no `\/`).
func jsonString(_ text: String) -> String {
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

/// A small seeded generator (SplitMix64), so every generated input is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
