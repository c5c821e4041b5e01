// Reads a request head (RFC 9112): the request line and the header fields, up to the blank line.
// Strict where leniency lets a request mean two things (to this server and to a proxy in front):
// no line folding, no space before a field's colon, one Content-Length, no Transfer-Encoding.

/// A request head as parsed, and how its body is framed.
struct ParsedHead {
  var method: String
  var path: String
  var query: String
  var headers: HTTPHeaders
  /// HTTP/1.0 (which closes unless asked to keep alive) rather than HTTP/1.1.
  var isHTTP10: Bool
  /// The body's length (0 without Content-Length).
  var contentLength: Int

  /// Whether the connection stays open after the response, as the client asked.
  var keepAlive: Bool {
    if headers.contains("Connection", token: "close") { return false }
    return !isHTTP10 || headers.contains("Connection", token: "keep-alive")
  }
}

/// What reading a head from the start of a buffer found.
enum HeadParse {
  /// The head is not complete yet (and not over the limit).
  case incomplete
  /// A head of `length` bytes (with its blank line).
  case head(ParsedHead, length: Int)
  /// The head cannot be answered: reply with this status and close.
  case refused(status: Int, reason: String)
}

enum HTTPHeadParser {
  /// Reads a head from `buffer` at `start`, refusing one longer than `maxHeadBytes` with 431.
  /// The search for its end begins at `scanned` (what an earlier call already looked through,
  /// so that a head arriving a byte at a time is not searched again from its start each time).
  static func parse(_ buffer: [UInt8], from start: Int, scanned: Int, maxHeadBytes: Int) -> HeadParse {
    guard let end = headEnd(buffer, from: start, scanFrom: max(start, scanned - 3), limit: maxHeadBytes) else {
      return buffer.count - start > maxHeadBytes
        ? .refused(status: 431, reason: "request head over \(maxHeadBytes) bytes") : .incomplete
    }
    let length = end - start
    guard length <= maxHeadBytes else {
      return .refused(status: 431, reason: "request head over \(maxHeadBytes) bytes")
    }
    // Lines end with CRLF; a bare LF is accepted as RFC 9112 allows.
    var lines: [ArraySlice<UInt8>] = []
    var lineStart = start
    for index in start..<end where buffer[index] == UInt8(ascii: "\n") {
      var line = buffer[lineStart..<index]
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      lines.append(line)
      lineStart = index + 1
    }
    // Empty lines before the request line are ignored (RFC 9112 §2.2).
    while let first = lines.first, first.isEmpty { lines.removeFirst() }
    guard let requestLine = lines.first else { return .refused(status: 400, reason: "no request line") }
    switch parseHead(requestLine: requestLine, fields: lines.dropFirst().filter { !$0.isEmpty }) {
    case .success(let head): return .head(head, length: length)
    case .failure(let failure): return .refused(status: failure.status, reason: failure.reason)
    }
  }

  private struct Failure: Error {
    var status: Int
    var reason: String
  }

  private static func parseHead(requestLine: ArraySlice<UInt8>, fields: [ArraySlice<UInt8>]) -> Result<
    ParsedHead, Failure
  > {
    guard UTF8Validation.isValid(requestLine), !requestLine.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
      return .failure(Failure(status: 400, reason: "request line with control characters"))
    }
    let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[1].first == UInt8(ascii: "/") || parts[1].elementsEqual("*".utf8)
    else { return .failure(Failure(status: 400, reason: "malformed request line")) }
    let version = String(decoding: parts[2], as: UTF8.self)
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      return .failure(Failure(status: version.hasPrefix("HTTP/") ? 505 : 400, reason: "unsupported version \(version)"))
    }
    guard parts[0].allSatisfy(isTokenCharacter) else {
      return .failure(Failure(status: 400, reason: "malformed method"))
    }
    let target = String(decoding: parts[1], as: UTF8.self)
    let path: String
    let query: String
    if let mark = target.firstIndex(of: "?") {
      path = String(target[..<mark])
      query = String(target[target.index(after: mark)...])
    } else {
      path = target
      query = ""
    }
    var headers = HTTPHeaders()
    for field in fields {
      guard let colon = field.firstIndex(of: UInt8(ascii: ":")), colon > field.startIndex,
        field[field.startIndex..<colon].allSatisfy(isTokenCharacter)
      else {
        // Covers line folding (a line starting with a space) and a space before the colon.
        return .failure(Failure(status: 400, reason: "malformed header field"))
      }
      let value = field[(colon + 1)...]
      guard !value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
        return .failure(Failure(status: 400, reason: "header field with control characters"))
      }
      headers.add(
        String(decoding: field[field.startIndex..<colon], as: UTF8.self),
        String(String(decoding: value, as: UTF8.self).trimmingSpaces))
    }
    if !headers.values(for: "Transfer-Encoding").isEmpty {
      return .failure(Failure(status: 501, reason: "Transfer-Encoding (chunked bodies) is not implemented"))
    }
    let lengths = Set(
      headers.values(for: "Content-Length").flatMap { $0.split(separator: ",").map { $0.trimmingSpaces } })
    guard lengths.count <= 1 else { return .failure(Failure(status: 400, reason: "conflicting Content-Length")) }
    var contentLength = 0
    if let text = lengths.first {
      guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        let value = Int(text)
      else { return .failure(Failure(status: 400, reason: "malformed Content-Length")) }
      contentLength = value
    }
    if version == "HTTP/1.1", headers["Host"] == nil {
      return .failure(Failure(status: 400, reason: "no Host field"))
    }
    return .success(
      ParsedHead(
        method: String(decoding: parts[0], as: UTF8.self), path: path, query: query, headers: headers,
        isHTTP10: version == "HTTP/1.0", contentLength: contentLength))
  }

  /// The index just past the head's blank line, looking no further than `limit` bytes (plus the
  /// line end) from `start`.
  private static func headEnd(_ buffer: [UInt8], from start: Int, scanFrom: Int, limit: Int) -> Int? {
    let stop = min(buffer.count, start + limit + 4)
    var index = scanFrom
    while index < stop {
      if buffer[index] == UInt8(ascii: "\n") {
        // LF LF, or LF CR LF: the blank line (after skipping any leading empty lines, which the
        // parser drops).
        if index + 1 < stop, buffer[index + 1] == UInt8(ascii: "\n") { return index + 2 }
        if index + 2 < stop, buffer[index + 1] == UInt8(ascii: "\r"), buffer[index + 2] == UInt8(ascii: "\n") {
          return index + 3
        }
      }
      index += 1
    }
    return nil
  }

  private static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}
