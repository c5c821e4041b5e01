// RFC 6455 from a raw socket: the handshake, messages both ways, fragments, ping/pong, the
// closing handshake, and every frame the server must refuse with its close code.
import Testing
import WebServer

@Suite struct WebSocketTests {
  @Test func echoesTextMessagesOfEverySize() async throws {
    try await withServer { server in
      let port = server.boundPort
      let echoes = try await blocking {
        let client = try RawClient.webSocket(port: port)
        var echoes: [Bool] = []
        for size in [0, 1, 125, 126, 65_535, 65_536] {
          let text = String(repeating: "é", count: size / 2) + String(repeating: "a", count: size % 2)
          try client.sendText(text)
          echoes.append(client.readText() == text)
        }
        return echoes
      }
      #expect(echoes == [true, true, true, true, true, true])
    }
  }

  @Test func joinsFragmentsAndAnswersPingsBetweenThem() async throws {
    try await withServer { server in
      let port = server.boundPort
      let (pong, text) = try await blocking {
        let client = try RawClient.webSocket(port: port)
        try client.send(RawClient.frame(opcode: 1, Array("bohe".utf8), fin: false))
        try client.send(RawClient.frame(opcode: 9, Array("ping!".utf8)))
        let pong = client.readFrame()
        try client.send(RawClient.frame(opcode: 0, Array("mian ".utf8), fin: false))
        try client.send(RawClient.frame(opcode: 0, Array("rhapsody".utf8), fin: true))
        return (pong, client.readText())
      }
      #expect(pong?.opcode == 10)
      #expect(pong?.payload == Array("ping!".utf8))
      #expect(text == "bohemian rhapsody")
    }
  }

  @Test func answersTheClientsCloseWithItsCodeAndCloses() async throws {
    try await withServer { server in
      let port = server.boundPort
      let (code, closed) = try await blocking {
        let client = try RawClient.webSocket(port: port)
        try client.send(RawClient.frame(opcode: 8, [0x03, 0xE8] + Array("done".utf8)))
        return (client.readCloseCode(), client.readsEnd())
      }
      #expect(code == 1000)
      #expect(closed)
      #expect(await eventually { server.connectionCount == 0 })
    }
  }

  /// Each bad frame, sent after a good message, and the close code it must bring.
  static let badFrames: [(name: String, frame: [UInt8], code: UInt16)] = [
    ("unmasked", RawClient.frame(opcode: 1, Array("hi".utf8), masked: false), 1002),
    ("reserved bit", RawClient.frame(opcode: 1, Array("hi".utf8), reserved: 4), 1002),
    ("opcode 3", RawClient.frame(opcode: 3, Array("hi".utf8)), 1002),
    ("opcode 11", RawClient.frame(opcode: 11, []), 1002),
    ("fragmented ping", RawClient.frame(opcode: 9, [], fin: false), 1002),
    ("ping of 126 bytes", RawClient.frame(opcode: 9, [UInt8](repeating: 1, count: 126)), 1002),
    ("continuation first", RawClient.frame(opcode: 0, Array("hi".utf8)), 1002),
    (
      "text inside a fragmented message", RawClient.frame(opcode: 1, [], fin: false) + RawClient.frame(opcode: 1, []),
      1002
    ),
    ("close of one byte", RawClient.frame(opcode: 8, [3]), 1002),
    ("close code 1005", RawClient.frame(opcode: 8, [0x03, 0xED]), 1002),
    ("invalid UTF-8", RawClient.frame(opcode: 1, [0x68, 0xC0, 0xAF]), 1007),
    (
      "a surrogate across fragments",
      RawClient.frame(opcode: 1, [0xED], fin: false) + RawClient.frame(opcode: 0, [0xA0, 0x80]), 1007
    ),
    ("close reason not UTF-8", RawClient.frame(opcode: 8, [0x03, 0xE8, 0xFF]), 1007),
    ("binary", RawClient.frame(opcode: 2, [1, 2, 3]), 1003),
    ("over the message limit", RawClient.frame(opcode: 1, [UInt8](repeating: 0x61, count: 1_025)), 1009),
    (
      "fragments over the message limit",
      RawClient.frame(opcode: 1, [UInt8](repeating: 0x61, count: 1_000), fin: false)
        + RawClient.frame(opcode: 0, [UInt8](repeating: 0x61, count: 25)), 1009
    ),
  ]

  @Test(arguments: badFrames.indices)
  func refusesABadFrameWithItsCode(_ index: Int) async throws {
    let bad = Self.badFrames[index]
    var configuration = HTTPServerConfiguration()
    configuration.maxMessageBytes = 1_024
    try await withServer(configuration: configuration) { server in
      let port = server.boundPort
      let (echo, code, closed) = try await blocking {
        let client = try RawClient.webSocket(port: port)
        try client.sendText("fine")
        let echo = client.readText()
        try client.send(bad.frame)
        return (echo, client.readCloseCode(), client.readsEnd())
      }
      #expect(echo == "fine", "\(bad.name)")
      #expect(code == bad.code, "\(bad.name)")
      #expect(closed, "\(bad.name)")
    }
  }

  @Test func anUpgradeFromAnotherOriginIs403UnlessAllowed() async throws {
    var configuration = HTTPServerConfiguration()
    configuration.allowedOrigins = ["http://app.example"]
    try await withServer(configuration: configuration) { server in
      let port = server.boundPort
      let statuses = try await blocking {
        try ["http://evil.example", "http://app.example", "http://127.0.0.1:\(port)", nil].map { origin in
          let client = try RawClient(port: port)
          try client.send(RawClient.upgradeRequest(port: port, extra: origin.map { "Origin: \($0)\r\n" } ?? ""))
          return client.readResponse()?.status
        }
      }
      #expect(statuses == [403, 101, 101, 101])
    }
  }

  @Test func refusesBrokenUpgrades() async throws {
    try await withServer { server in
      let port = server.boundPort
      let statuses = try await blocking {
        let requests = [
          "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n",  // not an upgrade
          RawClient.upgradeRequest(port: port).replacingOccurrences(of: "Version: 13", with: "Version: 8"),
          RawClient.upgradeRequest(port: port).replacingOccurrences(of: "dGhlIHNhbXBsZSBub25jZQ==", with: "short"),
          RawClient.upgradeRequest(path: "/other", port: port),
        ]
        return try requests.map { request in
          let client = try RawClient(port: port)
          try client.send(request)
          return client.readResponse()?.status
        }
      }
      #expect(statuses == [426, 426, 400, 404])
    }
  }
}
