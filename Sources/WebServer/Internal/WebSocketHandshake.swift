// The opening handshake (RFC 6455 §4.2): which upgrade requests are accepted, and the 101 answer.
// The Origin check stops a page on another site from driving a visitor's socket (cross-site
// WebSocket hijacking): browsers always send Origin, and the server's own pages share its Host.

enum WebSocketHandshake {
  /// The GUID RFC 6455 appends to the client's key before hashing.
  private static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// Whether the head asks for a WebSocket at all (so a plain GET of the path is told apart).
  static func isUpgrade(_ head: ParsedHead) -> Bool {
    head.headers.contains("Upgrade", token: "websocket")
  }

  /// The 101 response bytes, or the status (with a reason) refusing the upgrade.
  static func answer(_ head: ParsedHead, allowedOrigins: Set<String>) -> Result<[UInt8], HandshakeRefusal> {
    guard head.method == "GET", !head.isHTTP10 else {
      return .failure(HandshakeRefusal(status: 400, reason: "a WebSocket upgrade must be an HTTP/1.1 GET"))
    }
    guard head.headers.contains("Connection", token: "upgrade") else {
      return .failure(HandshakeRefusal(status: 400, reason: "Connection does not list Upgrade"))
    }
    guard head.headers["Sec-WebSocket-Version"]?.trimmingSpaces == "13" else {
      return .failure(HandshakeRefusal(status: 426, reason: "only WebSocket version 13 is spoken", version: true))
    }
    guard let key = head.headers["Sec-WebSocket-Key"], Base64.decode(key)?.count == 16 else {
      return .failure(HandshakeRefusal(status: 400, reason: "Sec-WebSocket-Key is not 16 bytes in base64"))
    }
    if let origin = head.headers["Origin"],
      !isAllowed(origin: origin, host: head.headers["Host"], allowed: allowedOrigins)
    {
      return .failure(HandshakeRefusal(status: 403, reason: "origin \(origin) is not allowed"))
    }
    let response =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(acceptValue(for: key))\r\n\r\n"
    return .success(Array(response.utf8))
  }

  /// Sec-WebSocket-Accept for a client's key.
  static func acceptValue(for key: String) -> String {
    Base64.encode(SHA1.digest(Array((key + acceptGUID).utf8)))
  }

  /// Whether a page from `origin` may open a socket: it is the server's own (its authority is
  /// the request's Host), listed, or `*` is listed.
  static func isAllowed(origin: String, host: String?, allowed: Set<String>) -> Bool {
    let lowered = origin.lowercased()
    if allowed.contains("*") || allowed.contains(where: { $0.lowercased() == lowered }) { return true }
    guard let host, let schemeEnd = lowered.range(of: "://") else { return false }
    var authority = lowered[schemeEnd.upperBound...]
    let scheme = lowered[..<schemeEnd.lowerBound]
    // A default port may be written in one and not in the other.
    let defaultPort = scheme == "https" ? ":443" : ":80"
    var hostAuthority = Substring(host.lowercased())
    if authority.hasSuffix(defaultPort) { authority = authority.dropLast(defaultPort.count) }
    if hostAuthority.hasSuffix(defaultPort) { hostAuthority = hostAuthority.dropLast(defaultPort.count) }
    return !authority.isEmpty && authority == hostAuthority
  }
}

/// An upgrade the server refuses, and why.
struct HandshakeRefusal: Error {
  var status: Int
  var reason: String
  /// Whether to name the version the server speaks (a 426 answer to a wrong version).
  var version = false

  /// The response: the status, a one-line reason, and closed after.
  var response: HTTPResponse {
    var response = HTTPResponse.text(reason + "\n", status: status)
    if version { response.headers.add("Sec-WebSocket-Version", "13") }
    return response
  }
}
