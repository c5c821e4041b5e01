// The client side of RFC 6455 on a RawClient, with every bit under the test's control: masked or
// not, reserved bits, any opcode, fragments.
import Foundation
import TestSupport

extension RawClient {
  /// The upgrade request for `path` (a fixed key), with optional extra fields.
  static func upgradeRequest(path: String = "/ws", port: UInt16, extra: String = "") -> String {
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(extra)\r\n"
  }

  /// Connects and completes the handshake; throws unless the answer is 101.
  static func webSocket(port: UInt16, path: String = "/ws", receiveBuffer: Int32? = nil) throws -> RawClient {
    let client = try RawClient(port: port, receiveBuffer: receiveBuffer)
    try client.send(upgradeRequest(path: path, port: port))
    guard let answer = client.readResponse(), answer.status == 101 else {
      throw ClientSocketError(description: "no 101 for the upgrade")
    }
    return client
  }

  /// A client frame: masked unless told otherwise.
  static func frame(
    opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, reserved: UInt8 = 0
  ) -> [UInt8] {
    var frame: [UInt8] = [(fin ? 0x80 : 0) | (reserved << 4) | opcode]
    let maskBit: UInt8 = masked ? 0x80 : 0
    if payload.count < 126 {
      frame.append(maskBit | UInt8(payload.count))
    } else if payload.count < 65536 {
      frame.append(maskBit | 126)
      frame.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
    } else {
      frame.append(maskBit | 127)
      for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
    }
    guard masked else { return frame + payload }
    let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    frame.append(contentsOf: mask)
    frame.append(contentsOf: payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
    return frame
  }

  func sendText(_ text: String) throws { try send(Self.frame(opcode: 1, Array(text.utf8))) }

  /// The next server frame: its opcode and payload (server frames are never masked).
  func readFrame(within bound: Duration = hangBound) -> (opcode: UInt8, payload: [UInt8])? {
    guard
      let bytes = read(
        within: bound,
        until: { bytes in
          guard bytes.count >= 2 else { return nil }
          var length = Int(bytes[1] & 0x7F)
          var header = 2
          if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            header = 4
          } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
          }
          return bytes.count >= header + length ? header + length : nil
        })
    else { return nil }
    let header = bytes[1] & 0x7F == 126 ? 4 : bytes[1] & 0x7F == 127 ? 10 : 2
    return (bytes[0] & 0x0F, Array(bytes[header...]))
  }

  /// The next text frame's text (skipping nothing: any other frame is a failure, nil).
  func readText(within bound: Duration = hangBound) -> String? {
    guard let frame = readFrame(within: bound), frame.opcode == 1 else { return nil }
    return String(decoding: frame.payload, as: UTF8.self)
  }

  /// The code of the next frame if it is a close frame.
  func readCloseCode(within bound: Duration = hangBound) -> UInt16? {
    guard let frame = readFrame(within: bound), frame.opcode == 8, frame.payload.count >= 2 else { return nil }
    return UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
  }
}
