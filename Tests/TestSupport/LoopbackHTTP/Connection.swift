// One connection of the loopback server: read a request, log it, answer it (misbehaving on demand), close.
//
// Each connection runs on its own thread with a non-blocking socket; every wait is a poll(2) on
// the socket and the server's wake pipe, so a client closing early is noticed (POLLIN and a
// recv of 0 bytes, or POLLHUP) and recorded on its request.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct Connection {
  let fd: Int32
  let wakeFD: Int32
  let log: ServerLog

  /// The largest request head read; a longer one closes the connection.
  static let maximumHeadBytes = 64 * 1024

  func run() {
    Socket.setNonBlocking(fd)
    guard let head = readHead(), let request = log.record(head) else { return }
    let outcome = answer(log.handler(request), index: request.index)
    if outcome == .peerClosed { log.recordEarlyClose(ofRequest: request.index) }
  }

  /// Reads up to the blank line that ends the head; nil when the client or server gives up.
  private func readHead() -> RequestHead? {
    var buffer: [UInt8] = []
    let terminator: [UInt8] = Array("\r\n\r\n".utf8)
    while buffer.count <= Self.maximumHeadBytes {
      if let end = firstRange(of: terminator, in: buffer) {
        return RequestHead(Array(buffer[..<end]))
      }
      guard Socket.wait(fd, for: Int16(POLLIN), wakeFD: wakeFD, until: nil) == .ready,
        Socket.receive(fd, into: &buffer) == .ready
      else { return nil }
    }
    return nil
  }

  private func answer(_ reply: Reply, index: Int) -> WaitOutcome {
    switch reply.fault {
    case .none:
      return send(reply)
    case .delay(let duration):
      let outcome = hold(until: .now + duration)
      return outcome == .deadline ? send(reply) : outcome
    case .emptyBody403:
      return send(Reply(status: 403))
    case .htmlPage:
      return send(Reply(status: reply.status, headers: [HTTPHeader("Content-Type", "text/html")], body: FaultBody.html))
    case .malformedJSON:
      return send(.json(FaultBody.malformedJSON, status: reply.status))
    case .truncatedBody:
      let announced = max(reply.body.count, 64)
      let head = Self.head(status: reply.status, headers: reply.headers, length: announced)
      return sendParts([head, Array(reply.body.prefix(reply.body.count / 2))])
    case .connectionReset:
      Socket.setResetOnClose(fd)
      return .ready
    case .noAnswer:
      return hold(until: nil)
    case .oversized(let bytes, let chunked):
      let status = reply.status
      return sendOversized(bytes: bytes, chunked: chunked, status: status, headers: reply.headers, index: index)
    case .endlessBody(let chunk, let interval):
      return sendOversized(
        bytes: .max, chunked: true, status: reply.status, headers: reply.headers, index: index,
        pace: (max(chunk, 1), interval))
    case .announcedBody(let length, let sending):
      let headers = [HTTPHeader("Content-Type", "application/json")] + reply.headers
      let body = Array(#"{"resultCount":0,"results":["#.utf8.prefix(max(0, min(sending, length))))
      let head = Self.head(status: reply.status, headers: headers, length: length)
      let outcome = Socket.sendAll(fd, head + body, wakeFD: wakeFD)
      guard outcome == .ready else { return outcome }
      log.recordBodyBytesSent(body.count, ofRequest: index)
      return hold(until: nil)
    case .gzipBomb(let inflatedBytes):
      let body = GzipBomb.body(inflatingTo: inflatedBytes)
      let headers = [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Content-Encoding", "gzip")]
      var outcome = Socket.sendAll(fd, Self.head(status: 200, headers: headers, length: body.count), wakeFD: wakeFD)
      var sent = 0
      while outcome == .ready && sent < body.count {
        let end = min(sent + 64 * 1024, body.count)
        outcome = Socket.sendAll(fd, body[sent..<end], wakeFD: wakeFD)
        if outcome == .ready { sent = end }
      }
      log.recordBodyBytesSent(sent, ofRequest: index)
      return outcome
    case .slowDrip(let chunk, let interval):
      let head = Self.head(status: reply.status, headers: reply.headers, length: reply.body.count)
      var outcome = Socket.sendAll(fd, head, wakeFD: wakeFD)
      var offset = 0
      while outcome == .ready && offset < reply.body.count {
        let end = min(offset + max(chunk, 1), reply.body.count)
        outcome = Socket.sendAll(fd, reply.body[offset..<end], wakeFD: wakeFD)
        offset = end
        if outcome == .ready && offset < reply.body.count {
          outcome = hold(until: .now + interval)
          if outcome == .deadline { outcome = .ready }
        }
      }
      return outcome
    }
  }

  /// Sends a complete answer, then closes the writing side (the caller closes the socket).
  private func send(_ reply: Reply) -> WaitOutcome {
    sendParts([Self.head(status: reply.status, headers: reply.headers, length: reply.body.count), Array(reply.body)])
  }

  private func sendParts(_ parts: [[UInt8]]) -> WaitOutcome {
    for part in parts {
      let outcome = Socket.sendAll(fd, part, wakeFD: wakeFD)
      if outcome != .ready { return outcome }
    }
    shutdown(fd, Int32(SHUT_WR))
    return .ready
  }

  /// A valid JSON body of `bytes` bytes, in pieces so the server never holds it whole (with
  /// `pace`, pieces of `chunk` bytes, `every` apart); logs how many of its bytes were sent.
  private func sendOversized(
    bytes: Int, chunked: Bool, status: Int, headers: [HTTPHeader], index: Int,
    pace: (chunk: Int, every: Duration)? = nil
  ) -> WaitOutcome {
    let prefix = Array(#"{"resultCount":0,"results":[],"padding":""#.utf8)
    let suffix = Array(#""}"#.utf8)
    let total = max(bytes, prefix.count + suffix.count)
    let headers = [HTTPHeader("Content-Type", "application/json")] + headers
    let head =
      chunked
      ? Self.head(status: status, headers: headers + [HTTPHeader("Transfer-Encoding", "chunked")], length: nil)
      : Self.head(status: status, headers: headers, length: total)
    var outcome = Socket.sendAll(fd, head, wakeFD: wakeFD)
    var sent = 0
    defer { log.recordBodyBytesSent(sent, ofRequest: index) }
    var padding = total - prefix.count - suffix.count
    var pieces: [[UInt8]] = [prefix]
    while outcome == .ready && (!pieces.isEmpty || padding > 0) {
      if pieces.isEmpty {
        let size = min(padding, pace?.chunk ?? 64 * 1024)
        padding -= size
        pieces =
          padding == 0
          ? [[UInt8](repeating: UInt8(ascii: "x"), count: size), suffix]
          : [[UInt8](repeating: UInt8(ascii: "x"), count: size)]
      }
      let piece = pieces.removeFirst()
      let framed = chunked ? Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8) : piece
      outcome = Socket.sendAll(fd, framed, wakeFD: wakeFD)
      if outcome == .ready { sent += piece.count }
      if outcome == .ready, let pace, pace.every > .zero {
        outcome = hold(until: .now + pace.every)
        if outcome == .deadline { outcome = .ready }
      }
    }
    if outcome == .ready && chunked { outcome = Socket.sendAll(fd, Array("0\r\n\r\n".utf8), wakeFD: wakeFD) }
    return outcome
  }

  /// Holds the connection, reading and dropping whatever the client sends, until the client
  /// closes (`.peerClosed`), the deadline passes (`.deadline`) or the server stops (`.stopping`).
  private func hold(until deadline: ContinuousClock.Instant?) -> WaitOutcome {
    var scratch: [UInt8] = []
    while true {
      let outcome = Socket.wait(fd, for: Int16(POLLIN), wakeFD: wakeFD, until: deadline)
      guard outcome == .ready else { return outcome }
      if Socket.receive(fd, into: &scratch) == .peerClosed { return .peerClosed }
      scratch.removeAll(keepingCapacity: true)
    }
  }

  /// The status line and headers; `length` nil leaves Content-Length out (chunked bodies).
  static func head(status: Int, headers: [HTTPHeader], length: Int?) -> [UInt8] {
    var text = "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n"
    for header in headers { text += "\(header.name): \(header.value)\r\n" }
    if let length { text += "Content-Length: \(length)\r\n" }
    text += "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
    return Array(text.utf8)
  }

  private static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 418: "I'm a teapot"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }

  private func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    return (0...(haystack.count - needle.count)).first { start in
      haystack[start..<start + needle.count].elementsEqual(needle)
    }
  }
}

/// The bodies of the faults that replace the reply's body.
enum FaultBody {
  /// A page such as a captive portal or a proxy answers with, status 200.
  static let html = Data(
    """
    <!DOCTYPE html>
    <html><head><title>Sign in to the network</title></head>
    <body><h1>Welcome</h1><p>Please accept the terms to continue.</p></body></html>
    """.utf8)

  /// JSON that stops in the middle of a result.
  static let malformedJSON = #"{"resultCount": 2, "results": [{"trackId": 1, "trackName": "Cut"#
}

/// The request line and headers of a request, parsed.
struct RequestHead {
  var method: String
  var target: String
  var headers: [HTTPHeader]

  /// Parses the head (without its blank line); nil when the request line is malformed.
  init?(_ bytes: [UInt8]) {
    let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
    let requestLine = lines.first?.split(separator: " ") ?? []
    guard requestLine.count == 3 else { return nil }
    method = String(requestLine[0])
    target = String(requestLine[1])
    headers = lines.dropFirst().compactMap { line in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      return HTTPHeader(String(line[..<colon]), value)
    }
  }
}
