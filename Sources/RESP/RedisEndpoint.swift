// Where a Redis server is, read from the URL users write: redis://[[user]:password@]host[:port][/db].

/// The address, credentials and database of a Redis server.
///
/// ```swift
/// let endpoint = try RedisEndpoint(url: "redis://:secret@10.0.0.5:6380/2")
/// // endpoint.host == "10.0.0.5", endpoint.port == 6380, endpoint.password == "secret"
/// // endpoint.database == 2, endpoint.description == "redis://10.0.0.5:6380/2"
/// ```
///
/// The password may be percent-encoded (`%40` for `@`). IPv6 hosts are written in brackets
/// (`redis://[::1]:6379`). `rediss://` (TLS) is refused: this client speaks plain TCP.
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
  /// Host name or address, without brackets.
  public var host: String
  /// TCP port; 6379 when the URL names none.
  public var port: UInt16
  /// The ACL user for `AUTH user password`; nil authenticates as the default user.
  public var user: String?
  /// Sent with `AUTH` after connecting; nil sends no `AUTH`.
  public var password: String?
  /// Selected with `SELECT` after connecting when not 0.
  public var database: Int

  /// An endpoint from its parts.
  public init(host: String, port: UInt16 = 6379, user: String? = nil, password: String? = nil, database: Int = 0) {
    self.host = host
    self.port = port
    self.user = user
    self.password = password
    self.database = database
  }

  /// Reads a `redis://` URL.
  ///
  /// - Throws: ``RESPError/invalidEndpoint(_:)`` saying what is wrong.
  public init(url: String) throws(RESPError) {
    let scheme = "redis://"
    guard url.hasPrefix(scheme) else {
      if url.hasPrefix("rediss://") { throw .invalidEndpoint("TLS (rediss://) is not supported") }
      throw .invalidEndpoint("expected redis://[:password@]host[:port][/db]")
    }
    var rest = Substring(url.dropFirst(scheme.count))
    guard !rest.contains("?"), !rest.contains("#") else {
      throw .invalidEndpoint("query and fragment are not supported")
    }
    var database = 0
    if let slash = rest.firstIndex(of: "/") {
      let path = rest[rest.index(after: slash)...]
      rest = rest[..<slash]
      if !path.isEmpty {
        guard path.allSatisfy(Self.isDigit), let number = Int(path), number <= 1_000_000 else {
          throw .invalidEndpoint("the database must be a number, e.g. /0")
        }
        database = number
      }
    }
    var user: String?
    var password: String?
    if let at = rest.lastIndex(of: "@") {
      let credentials = rest[..<at]
      rest = rest[rest.index(after: at)...]
      if let colon = credentials.firstIndex(of: ":") {
        let name = try Self.percentDecoded(credentials[..<colon])
        user = name.isEmpty ? nil : name
        password = try Self.percentDecoded(credentials[credentials.index(after: colon)...])
      } else {
        // `redis://secret@host`: a lone word is the password, as redis-cli reads it.
        password = try Self.percentDecoded(credentials)
      }
    }
    var host: Substring
    var portText: Substring?
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { throw .invalidEndpoint("an IPv6 host needs its ']'") }
      host = rest[rest.index(after: rest.startIndex)..<close]
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw .invalidEndpoint("expected ':' and a port after ']'") }
        portText = after.dropFirst()
      }
    } else if let colon = rest.lastIndex(of: ":") {
      host = rest[..<colon]
      portText = rest[rest.index(after: colon)...]
    } else {
      host = rest
    }
    guard !host.isEmpty else { throw .invalidEndpoint("the host is missing") }
    var port: UInt16 = 6379
    if let portText {
      guard !portText.isEmpty, portText.allSatisfy(Self.isDigit), let number = UInt16(portText), number > 0 else {
        throw .invalidEndpoint("the port must be a number from 1 to 65535")
      }
      port = number
    }
    self.init(host: String(host), port: port, user: user, password: password, database: database)
  }

  /// The URL without credentials, for messages: `redis://host:port/db` (`/db` only when not 0).
  public var description: String {
    let shownHost = host.contains(":") ? "[\(host)]" : host
    return "redis://\(shownHost):\(port)" + (database == 0 ? "" : "/\(database)")
  }

  private static func percentDecoded(_ text: Substring) throws(RESPError) -> String {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
        throw .invalidEndpoint("a '%' in the credentials must be followed by two hex digits")
      }
      bytes.append(high << 4 | low)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func isDigit(_ character: Character) -> Bool {
    character.isASCII && character.isNumber
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }
}
