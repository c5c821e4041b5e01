// Turns a client's frames into what the connection acts on: whole text messages (fragments
// joined, UTF-8 checked), pings to answer, and the close frame. Any protocol violation becomes a
// failure with the close code RFC 6455 gives it.

/// What one frame amounts to.
enum WebSocketInput: Equatable {
  /// A whole text message.
  case text(String)
  /// A frame that completes nothing yet, a pong, or a binary message (accepted and dropped).
  case nothing
  /// A ping: answer with a pong carrying this payload.
  case ping([UInt8])
  /// The client's close frame: its code (nil when it gave none) and reason.
  case close(code: UInt16?, reason: String)
  /// Fail the connection with this close code.
  case failed(code: UInt16, reason: String)
}

/// The message being assembled from fragments, and the limits it is checked against.
struct WebSocketMessageReader {
  let maxMessageBytes: Int
  let acceptsBinaryMessages: Bool
  private var partial: [UInt8] = []
  /// The message's length so far (a binary one's bytes are counted, not kept).
  private var partialLength = 0
  private var partialOpcode: Opcode?

  init(maxMessageBytes: Int, acceptsBinaryMessages: Bool) {
    self.maxMessageBytes = maxMessageBytes
    self.acceptsBinaryMessages = acceptsBinaryMessages
  }

  /// How many more payload bytes a data frame may carry now.
  var payloadAllowance: Int { maxMessageBytes - partialLength }

  /// Takes one frame.
  mutating func take(_ frame: ClientFrame) -> WebSocketInput {
    switch frame.opcode {
    case .ping:
      return .ping(frame.payload)
    case .pong:
      return .nothing
    case .close:
      return closeInput(frame.payload)
    case .continuation:
      guard let opcode = partialOpcode else {
        return .failed(code: CloseCode.protocolError, reason: "continuation without a message")
      }
      if opcode == .text { partial.append(contentsOf: frame.payload) }
      partialLength += frame.payload.count
      return frame.fin ? finish(opcode) : .nothing
    case .text, .binary:
      guard partialOpcode == nil else {
        return .failed(code: CloseCode.protocolError, reason: "new message before the last one ended")
      }
      if frame.opcode == .binary, !acceptsBinaryMessages {
        return .failed(code: CloseCode.unsupportedData, reason: "binary messages are not accepted")
      }
      partialOpcode = frame.opcode
      if frame.opcode == .text { partial = frame.payload }
      partialLength = frame.payload.count
      return frame.fin ? finish(frame.opcode) : .nothing
    }
  }

  private mutating func finish(_ opcode: Opcode) -> WebSocketInput {
    partialOpcode = nil
    partialLength = 0
    let bytes = partial
    partial = []
    guard opcode == .text else { return .nothing }
    guard UTF8Validation.isValid(bytes) else {
      return .failed(code: CloseCode.invalidPayload, reason: "text message is not valid UTF-8")
    }
    return .text(String(decoding: bytes, as: UTF8.self))
  }

  private func closeInput(_ payload: [UInt8]) -> WebSocketInput {
    if payload.isEmpty { return .close(code: nil, reason: "") }
    guard payload.count >= 2 else { return .failed(code: CloseCode.protocolError, reason: "close frame of 1 byte") }
    let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
    guard CloseCode.isValidReceived(code) else {
      return .failed(code: CloseCode.protocolError, reason: "invalid close code \(code)")
    }
    let reason = payload[2...]
    guard UTF8Validation.isValid(reason) else {
      return .failed(code: CloseCode.invalidPayload, reason: "close reason is not valid UTF-8")
    }
    return .close(code: code, reason: String(decoding: reason, as: UTF8.self))
  }
}
