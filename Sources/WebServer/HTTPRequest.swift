// One request as the server read it: the handler's whole view of the client's message.

/// A request the server has read in full: its line, its headers and its body.
///
/// The path is as the client sent it (percent-escapes kept) and matched exactly against the
/// routes; the query is what follows `?`, decoded by ``queryValue(_:)``.
public struct HTTPRequest: Sendable {
  /// The method, e.g. `GET`.
  public var method: String
  /// The path, without the query, e.g. `/search`.
  public var path: String
  /// The raw query after `?` (empty when there is none), e.g. `q=abba&limit=5`.
  public var query: String
  /// The header fields, in order.
  public var headers: HTTPHeaders
  /// The body (`Content-Length` bytes; empty when there is none).
  public var body: [UInt8]

  /// A request with these parts; useful for calling a handler directly in a test.
  public init(
    method: String, path: String, query: String = "", headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
  }

  /// The first value of the query parameter `name`, percent-decoded with `+` as a space; nil when
  /// it is absent or not valid UTF-8 once decoded. `q=` gives `""`; `q` alone gives `""`.
  ///
  /// ```swift
  /// HTTPRequest(method: "GET", path: "/search", query: "q=bohemian+rhapsody").queryValue("q")
  /// // "bohemian rhapsody"
  /// ```
  public func queryValue(_ name: String) -> String? {
    for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let key = Self.percentDecoded(parts[0]), key == name else { continue }
      return parts.count > 1 ? Self.percentDecoded(parts[1]) : ""
    }
    return nil
  }

  /// `text` with `+` as a space and `%XX` decoded; nil for a bad escape or invalid UTF-8.
  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
          return nil
        }
        bytes.append(high << 4 | low)
      default: bytes.append(byte)
      }
    }
    guard UTF8Validation.isValid(bytes) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
