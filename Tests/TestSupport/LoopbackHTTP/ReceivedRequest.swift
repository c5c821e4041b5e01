// What the loopback server records of each request it receives.
import Foundation

/// One `name=value` pair of a query string, percent-decoded with `+` read as a space.
public struct QueryParameter: Sendable, Hashable {
  /// The decoded name.
  public var name: String
  /// The decoded value.
  public var value: String

  /// Creates a parameter.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// A request as the server received it, and what became of its connection.
public struct ReceivedRequest: Sendable, Hashable {
  /// The position of the request in the server's log, from 0.
  public var index: Int
  /// The method, e.g. "GET".
  public var method: String
  /// The request target as sent, e.g. "/search?term=abba".
  public var target: String
  /// The target's path, e.g. "/search".
  public var path: String
  /// The raw query string after `?`, undecoded; empty when there is none.
  public var rawQuery: String
  /// The decoded query parameters, in the order sent.
  public var parameters: [QueryParameter]
  /// The request headers, in the order sent.
  public var headers: [HTTPHeader]
  /// When the request was read completely.
  public var arrivedAt: ContinuousClock.Instant
  /// When the client closed the connection before the answer was complete; nil if it did not.
  public var clientClosedEarlyAt: ContinuousClock.Instant?
  /// How many bytes of a streamed body (`Fault.oversized`, `Fault.gzipBomb`) the server wrote
  /// before the body ended or the client closed: what the client was made to read.
  public var bodyBytesSent = 0

  /// Whether the client closed the connection before the answer was complete.
  public var clientClosedEarly: Bool { clientClosedEarlyAt != nil }

  /// The decoded value of the first parameter named `name`, nil when absent.
  public func value(of name: String) -> String? {
    parameters.first { $0.name == name }?.value
  }

  /// The names of the parameters, in the order sent (repeated names repeat).
  public var parameterNames: [String] { parameters.map(\.name) }
}

/// Decoding of `application/x-www-form-urlencoded` query strings, byte-exact.
public enum QueryString {
  /// The parameters of `query`: split on `&`, then on the first `=`; `+` becomes a space and
  /// `%XX` the byte XX; the bytes are read as UTF-8 without normalising (a malformed `%`
  /// sequence is kept as written).
  public static func decode(_ query: String) -> [QueryParameter] {
    query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = parts.first.map { decodeComponent(Substring($0)) } ?? ""
      let value = parts.count > 1 ? decodeComponent(Substring(parts[1])) : ""
      return QueryParameter(name, value)
    }
  }

  /// One name or value, decoded.
  public static func decodeComponent(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    let source = Array(text.utf8)
    var index = 0
    while index < source.count {
      let byte = source[index]
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), index + 2 < source.count,
        let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2])
      {
        bytes.append(high << 4 | low)
        index += 2
      } else {
        bytes.append(byte)
      }
      index += 1
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
