// Makes JSON text from elsewhere (a server's answer, a catalog file) safe to decode field by field:
// text that is not Unicode becomes U+FFFD instead of costing its field.
//
// `SearchItem` decodes each field on its own and reads a field that fails as absent, so that one
// odd field does not cost the item. Foundation's JSONDecoder fails a string holding invalid UTF-8
// or an unpaired surrogate escape (`\ud800`), which would then vanish without a word: an item
// whose title held one byte of Latin-1 arrived with no title. Repairing the text first keeps
// every field, and the replacement character shows where the text was broken.

import Foundation

/// Repairs JSON text so that every string in it decodes.
package enum JSONTextRepair {
  /// `text` with each ill-formed UTF-8 sequence replaced by U+FFFD (as the Unicode standard's
  /// "maximal subpart" practice says) and each `\uXXXX` escape of an unpaired surrogate replaced
  /// by `\uFFFD`. Returns `text` itself, uncopied, when there is nothing to repair.
  ///
  /// Useful before `JSONDecoder` on text the program did not write. Bytes that are valid JSON
  /// are never changed, so the repair cannot turn one document into another; a backslash outside
  /// a string is left as it is (the text is not JSON either way).
  package static func repaired(_ text: Data) -> Data {
    var text = text
    if !isValidUTF8(text) {
      text = Data(String(decoding: text, as: UTF8.self).utf8)
    }
    if let escapes = unpairedSurrogateEscapes(in: text) {
      text = replacing(escapes, in: text)
    }
    return text
  }

  /// Whether `bytes` is well-formed UTF-8 (Unicode's table of well-formed byte sequences: no
  /// overlong forms, no surrogates, nothing above U+10FFFF).
  static func isValidUTF8(_ bytes: Data) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var index = 0
      let count = buffer.count
      while index < count {
        let lead = buffer[index]
        if lead < 0x80 {
          index += 1
          continue
        }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return false
        }
        guard index + length <= count, (low...high).contains(buffer[index + 1]) else { return false }
        for offset in 2..<max(length, 2) where !(0x80...0xBF).contains(buffer[index + offset]) {
          return false
        }
        index += length
      }
      return true
    }
  }

  /// The offsets of the `\uXXXX` escapes that name a surrogate without its partner; nil when
  /// there are none.
  static func unpairedSurrogateEscapes(in text: Data) -> [Int]? {
    text.withUnsafeBytes { buffer -> [Int]? in
      var found: [Int] = []
      var index = 0
      while index + 1 < buffer.count {
        guard buffer[index] == UInt8(ascii: "\\") else {
          index += 1
          continue
        }
        guard buffer[index + 1] == UInt8(ascii: "u"), let unit = codeUnit(in: buffer, at: index) else {
          // `\\`, `\"` and the other short escapes: skip both bytes, so `\\u` is not an escape.
          index += 2
          continue
        }
        switch unit {
        case 0xD800...0xDBFF:
          if let next = codeUnit(in: buffer, at: index + 6), (0xDC00...0xDFFF).contains(next) {
            index += 12
          } else {
            found.append(index)
            index += 6
          }
        case 0xDC00...0xDFFF:
          found.append(index)
          index += 6
        default:
          index += 6
        }
      }
      return found.isEmpty ? nil : found
    }
  }

  /// The UTF-16 code unit of the `\uXXXX` escape at `offset`; nil when there is none there.
  private static func codeUnit(in buffer: UnsafeRawBufferPointer, at offset: Int) -> UInt16? {
    guard offset + 6 <= buffer.count, buffer[offset] == UInt8(ascii: "\\"), buffer[offset + 1] == UInt8(ascii: "u")
    else { return nil }
    var unit: UInt16 = 0
    for byte in buffer[(offset + 2)..<(offset + 6)] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      unit = unit << 4 | UInt16(digit)
    }
    return unit
  }

  /// `text` with the six bytes at each of `offsets` replaced by `\uFFFD`.
  private static func replacing(_ offsets: [Int], in text: Data) -> Data {
    var repaired = Data(capacity: text.count)
    var copied = 0
    let replacement = Array(#"\uFFFD"#.utf8)
    for offset in offsets {
      repaired.append(text[(text.startIndex + copied)..<(text.startIndex + offset)])
      repaired.append(contentsOf: replacement)
      copied = offset + 6
    }
    repaired.append(text[(text.startIndex + copied)...])
    return repaired
  }
}
