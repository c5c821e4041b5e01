// What a WebSocket handler sees: its upgrade request, sends refused once it has closed, and the
// end of its messages when the client goes away without a close frame.
import Synchronization
import Testing
import WebServer

@Suite struct WebSocketHandlerTests {
  @Test func aHandlerSeesItsRequestAndItsSendsAreRefusedOnceClosed() async throws {
    let afterClose = Mutex<(WebSocketSendOutcome, Bool)?>(nil)
    let routes = FixtureRoutes.standard { routes in
      routes.webSocket("/named") { socket in
        socket.send("hello \(socket.request.queryValue("name") ?? "?")")
        for await text in socket.messages where text == "close" {
          socket.close(code: 4001, reason: "asked")
          afterClose.withLock { $0 = (socket.send("too late"), socket.isClosed) }
        }
      }
    }
    try await withServer(routes: routes) { server in
      let port = server.boundPort
      let (greeting, code) = try await blocking {
        let client = try RawClient.webSocket(port: port, path: "/named?name=ada")
        let greeting = client.readText()
        try client.sendText("close")
        return (greeting, client.readCloseCode())
      }
      #expect(greeting == "hello ada")
      #expect(code == 4001)
      #expect(await eventually { afterClose.withLock { $0 } != nil })
      #expect(afterClose.withLock { $0?.0 } == .closed)
      #expect(afterClose.withLock { $0?.1 } == true)
    }
  }

  @Test func messagesEndWhenTheClientVanishes() async throws {
    let ended = Mutex(false)
    let routes = FixtureRoutes.standard { routes in
      routes.webSocket("/watch") { socket in
        for await _ in socket.messages {}
        ended.withLock { $0 = true }
      }
    }
    try await withServer(routes: routes) { server in
      let port = server.boundPort
      try await blocking {
        let client = try RawClient.webSocket(port: port, path: "/watch")
        try client.sendText("one")
      }  // the client is dropped here: its socket closes without a close frame
      #expect(await eventually { ended.withLock { $0 } })
      #expect(await eventually { server.connectionCount == 0 })
    }
  }
}

@Suite struct EarlyFrameTests {
  @Test func framesSentBehindTheHandshakeAreRead() async throws {
    try await withServer { server in
      let port = server.boundPort
      let echo = try await blocking {
        let client = try RawClient(port: port)
        // The handshake and a first message in one write, before any answer.
        try client.send(
          Array(RawClient.upgradeRequest(port: port).utf8) + RawClient.frame(opcode: 1, Array("early".utf8)))
        guard client.readResponse()?.status == 101 else { return nil as String? }
        return client.readText()
      }
      #expect(echo == "early")
    }
  }
}
