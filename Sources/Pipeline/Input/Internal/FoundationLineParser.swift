// The reference path of input parsing: any JSON line the fast path hands back, read with
// JSONSerialization after a non-recursive scan (so that 100,000 `[` cannot exhaust the stack, and
// the trailing commas Foundation tolerates are refused), then checked field by field. Its reasons
// are the ones users see for invalid lines.

import Foundation

/// Parses a JSON keystroke line with JSONSerialization.
enum FoundationLineParser {
  /// The keystroke in `bytes` (a line starting, after whitespace, with `{`), or why it is not one.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> LineReading {
    typealias Reason = InputLineParser.Reason
    if let refusal = prescan(bytes, depthLimit: InputLineParser.maximumDepth) { return .failure(LineRefusal(refusal)) }
    let value: Any
    do {
      value = try JSONSerialization.jsonObject(with: Data(buffer: bytes), options: [.fragmentsAllowed])
    } catch {
      return .failure(LineRefusal(unreadableNumber(in: bytes) ?? Reason.invalidJSON))
    }
    guard let object = value as? [String: Any] else { return .failure(LineRefusal(Reason.notAnObject)) }

    guard let termValue = object["term"] else { return .failure(LineRefusal(Reason.missingTerm)) }
    if termValue is NSNull { return .failure(LineRefusal(Reason.nullTerm)) }
    guard let term = termValue as? String else { return .failure(LineRefusal(Reason.termNotString)) }

    var session: String?
    if let sessionValue = object["session"], !(sessionValue is NSNull) {
      guard let name = sessionValue as? String else { return .failure(LineRefusal(Reason.sessionNotString)) }
      session = name
    }

    var at: Int64?
    if let atValue = object["at_ms"], !(atValue is NSNull) {
      switch milliseconds(atValue) {
      case .success(let value): at = value
      case .failure(let reason): return .failure(LineRefusal(reason.text))
      }
    }
    return .success(Keystroke(term: term, atMilliseconds: at, session: session))
  }

  /// Why an `at_ms` value was refused.
  struct MillisecondsRefusal: Error {
    let text: String
  }

  /// `value` as whole milliseconds from 0 to 2^53.
  static func milliseconds(_ value: Any) -> Result<Int64, MillisecondsRefusal> {
    typealias Reason = InputLineParser.Reason
    // Booleans arrive as NSNumber too; their type encoding is "c" (char).
    guard let number = value as? NSNumber, !(value is String), String(cString: number.objCType) != "c" else {
      return .failure(MillisecondsRefusal(text: Reason.atNotNumber))
    }
    let limit = InputLineParser.maximumMilliseconds
    switch String(cString: number.objCType) {
    case "q", "l", "i", "s":
      // Read integers exactly: through a Double, 2^53 + 1 would pass as 2^53.
      let integer = number.int64Value
      if integer < 0 { return .failure(MillisecondsRefusal(text: Reason.atNegative)) }
      if integer > limit { return .failure(MillisecondsRefusal(text: Reason.atTooLarge)) }
      return .success(integer)
    case "Q", "L", "I", "S":
      let integer = number.uint64Value
      if integer > UInt64(limit) { return .failure(MillisecondsRefusal(text: Reason.atTooLarge)) }
      return .success(Int64(integer))
    default:
      // Floating point and decimal numbers: `1234.0` and `1.234e3` are whole numbers.
      let double = number.doubleValue
      if double < 0 { return .failure(MillisecondsRefusal(text: Reason.atNegative)) }
      if !double.isFinite || double != double.rounded() {
        return .failure(MillisecondsRefusal(text: Reason.atFractional))
      }
      if double > Double(limit) { return .failure(MillisecondsRefusal(text: Reason.atTooLarge)) }
      return .success(Int64(double))
    }
  }

  /// Why JSONSerialization refused `bytes`, when the cause is a number no Double holds (`1e400`):
  /// the `at_ms` rule when it is the value of `at_ms`, else a number out of range. Nil when every
  /// number reads, so the line is plain invalid JSON.
  static func unreadableNumber(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    var index = 0
    var lastString: ArraySlice<UInt8> = []
    var afterColon = false
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        let start = index + 1
        index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
          index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        lastString = ArraySlice(bytes[start..<min(index, bytes.count)])
        afterColon = false
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        let start = index
        while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // Only a well-formed number too large for a Double (`1e400` reads as infinity) is out of
        // range; a malformed one (`-`, `1.2.3`) is plain invalid JSON.
        if let value = Double(text), !value.isFinite {
          let isAt = afterColon && lastString.elementsEqual("at_ms".utf8)
          return isAt ? InputLineParser.Reason.atTooLarge : InputLineParser.Reason.numberOutOfRange
        }
        afterColon = false
        continue
      case UInt8(ascii: ":"):
        afterColon = true
      case UInt8(ascii: ","), UInt8(ascii: "{"), UInt8(ascii: "["):
        afterColon = false
      default:
        break
      }
      index += 1
    }
    return nil
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
      UInt8(ascii: "e"), UInt8(ascii: "E"):
      true
    default:
      false
    }
  }

  /// The reason to refuse `bytes` before JSONSerialization sees it, or nil: nesting of arrays and
  /// objects deeper than `depthLimit`, or a comma right before `]` or `}` (invalid JSON that
  /// Foundation's reader accepts). Strings are skipped, so brackets inside them do not count; other
  /// syntax is left to JSONSerialization.
  static func prescan(_ bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int) -> String? {
    var depth = 0
    var inString = false
    var escaped = false
    var lastSignificant: UInt8 = 0
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > depthLimit { return InputLineParser.Reason.tooDeep }
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        if lastSignificant == UInt8(ascii: ",") { return InputLineParser.Reason.invalidJSON }
        depth -= 1
      default: break
      }
      if !JSONLineFastParser.isWhitespace(byte) { lastSignificant = byte }
    }
    return nil
  }
}
