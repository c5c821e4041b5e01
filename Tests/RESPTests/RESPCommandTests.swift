// How commands go on the wire, and how URLs name servers.
import RESP
import Testing

@Suite struct RESPCommandTests {
  @Test func encodesArgumentsAsBulkStrings() {
    let command = RESPCommand("XADD", "keys", "*", "n", 42, [UInt8]([0, 0x0D, 0x0A]))
    #expect(
      command.encoded
        == Array("*6\r\n$4\r\nXADD\r\n$4\r\nkeys\r\n$1\r\n*\r\n$1\r\nn\r\n$2\r\n42\r\n$3\r\n".utf8)
        + [0, 0x0D, 0x0A, 0x0D, 0x0A])
    #expect(command.name == "XADD")
  }

  @Test func encodesUnicodeAsUTF8Bytes() {
    #expect(RESPCommand("SET", "é").encoded == Array("*2\r\n$3\r\nSET\r\n$2\r\né\r\n".utf8))
  }

  @Test func aRequestEncodesItsCommandsAsTheCommandsThemselvesDo() {
    let arguments: [any RESPArgument] = [
      "keys", Substring("*"), 42, -7, Int.min, Int64(9), [UInt8]([0, 0x0D, 0x0A]), "é", "",
    ]
    var request = RESPRequest()
    request.append("XADD", arguments: arguments)
    request.append(RESPCommand("PING"))
    request.append("GET", "k")
    #expect(request.count == 3)
    #expect(
      request.encoded
        == RESPCommand("XADD", arguments: arguments).encoded + RESPCommand("PING").encoded
        + RESPCommand("GET", "k").encoded)
  }
}

@Suite struct RedisEndpointTests {
  @Test func readsEveryPart() throws {
    let endpoint = try RedisEndpoint(url: "redis://:s%40cret@10.0.0.5:6380/2")
    #expect(endpoint == RedisEndpoint(host: "10.0.0.5", port: 6380, password: "s@cret", database: 2))
    #expect(endpoint.description == "redis://10.0.0.5:6380/2")
  }

  @Test func defaultsThePortAndDatabase() throws {
    #expect(try RedisEndpoint(url: "redis://cache.internal") == RedisEndpoint(host: "cache.internal"))
    #expect(try RedisEndpoint(url: "redis://cache.internal/") == RedisEndpoint(host: "cache.internal"))
  }

  @Test func readsAUserAndIPv6() throws {
    let endpoint = try RedisEndpoint(url: "redis://app:pw@[::1]:7000")
    #expect(endpoint == RedisEndpoint(host: "::1", port: 7000, user: "app", password: "pw"))
    #expect(endpoint.description == "redis://[::1]:7000")
  }

  @Test(arguments: [
    ("http://localhost", "expected redis://"),
    ("rediss://localhost", "TLS"),
    ("redis://", "host is missing"),
    ("redis://host:0", "port"),
    ("redis://host:65536", "port"),
    ("redis://host:port", "port"),
    ("redis://host/db", "database"),
    ("redis://host?timeout=1", "query"),
    ("redis://:%zz@host", "two hex digits"),
  ])
  func refusesWhatItCannotUse(url: String, reason: String) {
    let error = #expect(throws: RESPError.self) { try RedisEndpoint(url: url) }
    #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
  }
}
