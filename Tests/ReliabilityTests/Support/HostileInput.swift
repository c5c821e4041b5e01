// A seeded generator of hostile input lines mixed with good ones, and which line is which.
import Foundation
import Pipeline
import StreamsTesting
import TestSupport

/// An input of good and hostile lines; `badLines` holds the 1-based numbers of the hostile ones,
/// `badReasons` the start of the reason each must be reported with (docs/events.md).
struct HostileInput {
  var data = Data()
  var badLines: [Int] = []
  var badReasons: [String] = []
  var goodTerms: [String] = []
  var lineCount = 0

  /// `count` lines, about 40 % hostile. Good lines are JSON keystrokes 1 s apart (each settles
  /// into its own search); in `plainText` mode every other good line is a plain line instead.
  /// Hostile lines are longer than `maxLineBytes` only when they are meant to be.
  static func generate(seed: UInt64, count: Int, maxLineBytes: Int, plainText: Bool) -> HostileInput {
    var random = SplitMix64(seed: seed)
    var input = HostileInput()
    var now: Int64 = 0
    for _ in 0..<count {
      input.lineCount += 1
      if Int.random(in: 0..<10, using: &random) < 4 {
        let (line, reason) = hostileLine(&random, at: now, maxLineBytes: maxLineBytes)
        input.data.append(contentsOf: line)
        input.badLines.append(input.lineCount)
        input.badReasons.append(reason)
      } else {
        now += 1_000
        let term = "good\(input.goodTerms.count)"
        input.goodTerms.append(term)
        let line = plainText && input.goodTerms.count % 2 == 0 ? term : RecordedKey(now, term).jsonLine
        input.data.append(contentsOf: Array(line.utf8))
      }
      input.data.append(UInt8(ascii: "\n"))
    }
    return input
  }

  /// One line (without its newline) that the tool must refuse, in either input mode, and the
  /// start of the reason it must give.
  static func hostileLine(
    _ random: inout SplitMix64, at now: Int64, maxLineBytes: Int
  ) -> (line: [UInt8], reason: String) {
    let json = { (text: String) in Array(text.utf8) }
    switch Int.random(in: 0..<12, using: &random) {
    case 0:  // random bytes, never a newline or NUL, always with a byte that is invalid UTF-8
      var bytes = (0..<Int.random(in: 1...200, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      bytes = bytes.map { $0 == 0x0A || $0 == 0 ? 0xFF : $0 }
      bytes.insert(0xFF, at: Int.random(in: 0...bytes.count, using: &random))
      return (bytes, "invalid UTF-8")
    case 1:  // invalid UTF-8 inside a JSON string
      return (json(#"{"at_ms":\#(now),"term":"ab"#) + [0xC3, 0x28] + json(#""}"#), "invalid UTF-8")
    case 2:  // longer than --max-line-bytes
      let length = maxLineBytes + Int.random(in: 1...50_000, using: &random)
      return ([UInt8](repeating: UInt8(ascii: "x"), count: length), "line too long (\(length) bytes")
    case 3:  // nested 10,000 levels deep, under the line limit
      let nested =
        json(#"{"at_ms":\#(now),"term":"#) + [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
        + [UInt8](repeating: UInt8(ascii: "]"), count: 10_000) + json("}")
      return (nested, "JSON nested deeper than 32 levels")
    case 4: return (json(#"{"at_ms":\#(now),"term":5}"#), #""term" must be a string"#)
    case 5: return (json(#"{"at_ms":"soon","term":"abc"}"#), #""at_ms" must be a number"#)
    case 6: return (json(#"{"at_ms":\#(now),"term":"abc","session":7}"#), #""session" must be a string"#)
    case 7: return (json(#"{"at_ms":\#(now),"term":null}"#), #""term" is null"#)
    case 8: return (json(#"{"at_ms":\#(now),"term":"a"#) + [0] + json(#"b"}"#), "NUL byte in line")
    case 9: return (json(#"{"at_ms":\#(now),"term":"\ud800"}"#), "invalid JSON")  // a lone surrogate escape
    case 10: return (json(#"{"at_ms":\#(now).5,"term":"abc"}"#), #""at_ms" must be a whole number"#)
    default: return (json(#"{"at_ms":\#(now),"term":"abc""#), "invalid JSON")  // cut off
    }
  }
}
