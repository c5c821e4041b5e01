// Base64 (RFC 4648, with padding) for the WebSocket handshake: the accept value is encoded, and
// the client's key is checked to be the encoding of 16 bytes.

enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// `bytes` in base64, padded with `=`.
  static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let first = bytes[index]
      let second = index + 1 < bytes.count ? bytes[index + 1] : 0
      let third = index + 2 < bytes.count ? bytes[index + 2] : 0
      output.append(alphabet[Int(first >> 2)])
      output.append(alphabet[Int((first & 0x03) << 4 | second >> 4)])
      output.append(index + 1 < bytes.count ? alphabet[Int((second & 0x0F) << 2 | third >> 6)] : UInt8(ascii: "="))
      output.append(index + 2 < bytes.count ? alphabet[Int(third & 0x3F)] : UInt8(ascii: "="))
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes `text` encodes, or nil when it is not padded base64.
  static func decode(_ text: some StringProtocol) -> [UInt8]? {
    let characters = Array(text.utf8)
    guard characters.count % 4 == 0 else { return nil }
    var output: [UInt8] = []
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    for (offset, character) in characters.enumerated() {
      if character == UInt8(ascii: "=") {
        // Padding only in the last two places, and nothing but padding after it.
        guard offset >= characters.count - 2 else { return nil }
        padding += 1
        continue
      }
      guard padding == 0, let value = sextet(character) else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    return output
  }

  private static func sextet(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }
}
