// Strict UTF-8 (RFC 3629): what a WebSocket text message and a close reason must be. Overlong
// forms, surrogates (U+D800–U+DFFF), code points past U+10FFFF and truncated sequences are refused.

enum UTF8Validation {
  /// Whether `bytes` are well-formed UTF-8.
  static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
    var iterator = bytes.makeIterator()
    while let lead = iterator.next() {
      if lead < 0x80 { continue }
      let continuationCount: Int
      // The range the first continuation byte must fall in: this is what refuses overlong
      // forms, surrogates and code points past U+10FFFF.
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: continuationCount = 1
      case 0xE0:
        continuationCount = 2
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: continuationCount = 2
      case 0xED:
        continuationCount = 2
        high = 0x9F
      case 0xF0:
        continuationCount = 3
        low = 0x90
      case 0xF1...0xF3: continuationCount = 3
      case 0xF4:
        continuationCount = 3
        high = 0x8F
      default: return false
      }
      for index in 0..<continuationCount {
        guard let byte = iterator.next() else { return false }
        if index == 0 {
          guard byte >= low, byte <= high else { return false }
        } else {
          guard byte & 0xC0 == 0x80 else { return false }
        }
      }
    }
    return true
  }
}
