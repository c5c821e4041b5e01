// RFC 6455 §5.2 frames: reading a client's (which must be masked) and writing the server's
// (never masked). A frame header is judged before its payload is read, so a client announcing a
// huge frame is refused with 1009 without the server buffering it.

/// Frame opcodes (RFC 6455 §5.2).
enum Opcode: UInt8 {
  case continuation = 0x0
  case text = 0x1
  case binary = 0x2
  case close = 0x8
  case ping = 0x9
  case pong = 0xA

  var isControl: Bool { rawValue & 0x8 != 0 }
}

/// Close status codes the server sends (RFC 6455 §7.4.1).
enum CloseCode {
  static let normal: UInt16 = 1000
  static let goingAway: UInt16 = 1001
  static let protocolError: UInt16 = 1002
  static let unsupportedData: UInt16 = 1003
  static let invalidPayload: UInt16 = 1007
  static let policyViolation: UInt16 = 1008
  static let messageTooBig: UInt16 = 1009
  static let internalError: UInt16 = 1011

  /// Whether a client may send `code` in a close frame: the defined codes minus those reserved
  /// for local use (1005, 1006, 1015), and the registered and private ranges.
  static func isValidReceived(_ code: UInt16) -> Bool {
    switch code {
    case 1000...1003, 1007...1014: true
    case 3000...4999: true
    default: false
    }
  }
}

/// One frame read from a client.
struct ClientFrame {
  var fin: Bool
  var opcode: Opcode
  /// Unmasked.
  var payload: [UInt8]
}

/// What reading a frame at the start of a buffer found.
enum FrameRead {
  /// Not all of the frame has arrived.
  case incomplete
  /// A frame of `length` bytes in the buffer.
  case frame(ClientFrame, length: Int)
  /// The frame breaks the protocol: close with `code`.
  case failed(code: UInt16, reason: String)
}

enum WebSocketFrame {
  /// Reads one client frame from `buffer` at `start`. A data frame whose payload is longer than
  /// `payloadAllowance` (what is left of the message limit) fails with 1009.
  static func read(_ buffer: [UInt8], from start: Int, payloadAllowance: Int) -> FrameRead {
    let available = buffer.count - start
    guard available >= 2 else { return .incomplete }
    let first = buffer[start]
    let second = buffer[start + 1]
    guard first & 0x70 == 0 else { return .failed(code: CloseCode.protocolError, reason: "reserved bits set") }
    guard let opcode = Opcode(rawValue: first & 0x0F) else {
      return .failed(code: CloseCode.protocolError, reason: "unknown opcode \(first & 0x0F)")
    }
    let fin = first & 0x80 != 0
    guard second & 0x80 != 0 else { return .failed(code: CloseCode.protocolError, reason: "unmasked client frame") }
    var headerLength = 2
    var payloadLength = UInt64(second & 0x7F)
    if payloadLength == 126 {
      guard available >= 4 else { return .incomplete }
      payloadLength = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
      headerLength = 4
    } else if payloadLength == 127 {
      guard available >= 10 else { return .incomplete }
      payloadLength = 0
      for index in 2..<10 { payloadLength = payloadLength << 8 | UInt64(buffer[start + index]) }
      guard payloadLength >> 63 == 0 else { return .failed(code: CloseCode.protocolError, reason: "length over 2^63") }
      headerLength = 10
    }
    if opcode.isControl {
      guard fin else { return .failed(code: CloseCode.protocolError, reason: "fragmented control frame") }
      guard payloadLength <= 125 else {
        return .failed(code: CloseCode.protocolError, reason: "control frame over 125 bytes")
      }
    } else if payloadLength > UInt64(max(payloadAllowance, 0)) {
      return .failed(code: CloseCode.messageTooBig, reason: "message too big")
    }
    let total = headerLength + 4 + Int(payloadLength)
    guard available >= total else { return .incomplete }
    let maskStart = start + headerLength
    let mask = (buffer[maskStart], buffer[maskStart + 1], buffer[maskStart + 2], buffer[maskStart + 3])
    let payloadStart = maskStart + 4
    var payload = [UInt8](repeating: 0, count: Int(payloadLength))
    payload.withUnsafeMutableBufferPointer { output in
      buffer.withUnsafeBufferPointer { input in
        for index in 0..<output.count {
          let key: UInt8
          switch index & 3 {
          case 0: key = mask.0
          case 1: key = mask.1
          case 2: key = mask.2
          default: key = mask.3
          }
          output[index] = input[payloadStart + index] ^ key
        }
      }
    }
    return .frame(ClientFrame(fin: fin, opcode: opcode, payload: payload), length: total)
  }

  /// A whole, unmasked server frame.
  static func encode(_ opcode: Opcode, _ payload: some Collection<UInt8>) -> [UInt8] {
    var frame: [UInt8] = []
    frame.reserveCapacity(payload.count + 10)
    frame.append(0x80 | opcode.rawValue)
    switch payload.count {
    case ..<126:
      frame.append(UInt8(payload.count))
    case ..<65536:
      frame.append(126)
      frame.append(UInt8(payload.count >> 8))
      frame.append(UInt8(truncatingIfNeeded: payload.count))
    default:
      frame.append(127)
      for shift in stride(from: 56, through: 0, by: -8) {
        frame.append(UInt8(truncatingIfNeeded: payload.count >> shift))
      }
    }
    frame.append(contentsOf: payload)
    return frame
  }

  /// A close frame with `code` and `reason` (cut to fit the 125-byte control frame limit on a
  /// character boundary).
  static func close(code: UInt16, reason: String) -> [UInt8] {
    var payload = [UInt8(code >> 8), UInt8(truncatingIfNeeded: code)]
    var reasonBytes = Array(reason.utf8.prefix(123))
    while !UTF8Validation.isValid(reasonBytes) { reasonBytes.removeLast() }
    payload.append(contentsOf: reasonBytes)
    return encode(.close, payload)
  }
}
