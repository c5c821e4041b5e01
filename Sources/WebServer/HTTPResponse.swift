// What a handler answers. The server adds Content-Length and Connection itself.

/// A response: a status, header fields and a body.
///
/// The server writes `Content-Length` (the body's size) and `Connection` itself; a handler's own
/// fields of those names are replaced.
///
/// ```swift
/// routes.get("/healthz") { _ in .text("ok\n") }
/// routes.get("/search") { request in
///   guard let term = request.queryValue("q") else { return .json(#"{"error":"q is missing"}"#, status: 400) }
///   return .json(answer(term))
/// }
/// ```
public struct HTTPResponse: Sendable {
  /// The status code, e.g. 200.
  public var status: Int
  /// Header fields to send.
  public var headers: HTTPHeaders
  /// The body.
  public var body: [UInt8]

  /// A response with these parts.
  public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON body, `application/json`.
  public static func json(_ body: String, status: Int = 200) -> HTTPResponse {
    typed(body, "application/json", status: status)
  }

  /// A plain-text body, `text/plain; charset=utf-8`.
  public static func text(_ body: String, status: Int = 200) -> HTTPResponse {
    typed(body, "text/plain; charset=utf-8", status: status)
  }

  /// An HTML document, `text/html; charset=utf-8`.
  public static func html(_ body: String, status: Int = 200) -> HTTPResponse {
    typed(body, "text/html; charset=utf-8", status: status)
  }

  private static func typed(_ body: String, _ type: String, status: Int) -> HTTPResponse {
    HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", type)]), body: Array(body.utf8))
  }

  /// The status line's reason phrase.
  static func reason(for status: Int) -> String {
    switch status {
    case 101: "Switching Protocols"
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 413: "Content Too Large"
    case 426: "Upgrade Required"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }

  /// The bytes on the wire: status line, fields, Content-Length, Connection, then the body
  /// (left out for a HEAD request).
  func encoded(keepAlive: Bool, includeBody: Bool = true) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
    for field in headers where Self.isWritable(field) {
      head += "\(field.name): \(field.value)\r\n"
    }
    head += "Content-Length: \(body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
    var bytes = Array(head.utf8)
    if includeBody { bytes.append(contentsOf: body) }
    return bytes
  }

  /// A field the server writes: not one it writes itself, and without a line break (a value
  /// built from a request must not add fields or a body of its own).
  private static func isWritable(_ field: (name: String, value: String)) -> Bool {
    !HTTPHeaders.same(field.name, "Content-Length") && !HTTPHeaders.same(field.name, "Connection")
      && !field.name.isEmpty && !field.name.utf8.contains { $0 == 13 || $0 == 10 || $0 == 58 }
      && !field.value.utf8.contains { $0 == 13 || $0 == 10 }
  }
}
