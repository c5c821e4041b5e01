// What one client can hold and cannot: connections past the limit, a client that stops reading
// (its outbox), a handler that stops reading (the server stops reading its client), and the stop.
import Streams
import StreamsTesting
import Synchronization
import TestSupport
import Testing
import WebServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct LimitsTests {
  @Test func aConnectionPastTheLimitIs503AndClosed() async throws {
    var configuration = HTTPServerConfiguration()
    configuration.maxConnections = 2
    try await withServer(configuration: configuration) { server in
      let port = server.boundPort
      let first = try RawClient(port: port)
      let second = try RawClient(port: port)
      #expect(await eventually { server.connectionCount == 2 })
      let (status, closed) = try await blocking {
        let third = try RawClient(port: port)
        return (third.readResponse()?.status, third.readsEnd())
      }
      #expect(status == 503)
      #expect(closed)
      // The two held connections still work, and a place freed is taken again.
      let answer = try await blocking {
        try first.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return first.readResponse()?.status
      }
      #expect(answer == 200)
      #expect(await eventually { server.connectionCount == 1 })
      let again = try await blocking {
        let fourth = try RawClient(port: port)
        try fourth.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        return fourth.readResponse()?.status
      }
      #expect(again == 200)
      _ = second
    }
  }

  @Test func aClientThatStopsReadingIsClosedWith1008AndOthersStayFast() async throws {
    let outcomes = Mutex<[WebSocketSendOutcome]>([])
    let routes = FixtureRoutes.standard { routes in
      routes.webSocket("/flood") { socket in
        let chunk = String(repeating: "x", count: 16_384)
        // Sends until refused: the client never reads, so the kernel's buffers fill, then the outbox.
        for _ in 0..<100_000 {
          let outcome = socket.send(chunk)
          if outcome != .queued {
            outcomes.withLock { $0.append(outcome) }
            return
          }
          await Task.yield()
        }
      }
    }
    var configuration = HTTPServerConfiguration()
    configuration.outboxLimitBytes = 256 << 10
    let clock = ManualClock()
    try await withServer(routes: routes, configuration: configuration, clock: clock) { server in
      let port = server.boundPort
      let stuck = try await blocking { try RawClient.webSocket(port: port, path: "/flood", receiveBuffer: 4_096) }
      // Another client is answered at once, before, during and after.
      let fast = try await blocking { try RawClient.webSocket(port: port) }
      #expect(await eventually { outcomes.withLock { $0 } == [.outboxFull] })
      let echoes = try await blocking {
        (0..<20).map { index in (try? fast.sendText("m\(index)")) != nil && fast.readText() == "m\(index)" }
      }
      #expect(echoes.allSatisfy { $0 })
      // The stuck client's close frame waits behind what it did not read: the close timeout ends it.
      try await clock.waitForSleepers(1)
      clock.advance(by: .seconds(2))
      #expect(await eventually { server.connectionCount == 1 })
      _ = stuck
    }
  }

  @Test func aHandlerThatStopsReadingStopsTheServerReadingItsClient() async throws {
    let gate = AsyncStream<Void>.makeStream()
    let received = Mutex<[String]>([])
    let routes = FixtureRoutes.standard { routes in
      routes.webSocket("/slow") { socket in
        for await _ in gate.stream { break }
        for await text in socket.messages { received.withLock { $0.append(text) } }
      }
    }
    var configuration = HTTPServerConfiguration()
    configuration.maxMessageBytes = 16_384
    try await withServer(routes: routes, configuration: configuration) { server in
      let port = server.boundPort
      let client = try await blocking { try RawClient.webSocket(port: port, path: "/slow") }
      // A small send buffer: fewer messages wait in the client's kernel once the server stops.
      var size: Int32 = 4_096
      setsockopt(client.descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      // Sends until the socket takes nothing for half a second: the server has stopped reading.
      // What is left of a frame cut short then is sent once the handler reads again.
      let (sent, leftover) = try await blocking { () -> (Int, [UInt8]) in
        _ = fcntl(client.descriptor, F_SETFL, fcntl(client.descriptor, F_GETFL, 0) | O_NONBLOCK)
        var count = 0
        var pending: [UInt8] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while ContinuousClock.now < deadline {
          if pending.isEmpty {
            pending = RawClient.frame(
              opcode: 1, Array(String(format: "%09d", count).utf8) + [UInt8](repeating: 0x2E, count: 990))
            count += 1
          }
          let written = pending.withUnsafeBytes {
            send(client.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
          if written > 0 {
            pending.removeFirst(written)
            continue
          }
          var entry = pollfd(fd: client.descriptor, events: Int16(POLLOUT), revents: 0)
          if poll(&entry, 1, 500) == 0 { return (count, pending) }
        }
        throw ClientSocketError(description: "the server never stopped reading")
      }
      #expect(sent > 2)
      gate.continuation.yield()
      try await blocking {
        _ = fcntl(client.descriptor, F_SETFL, fcntl(client.descriptor, F_GETFL, 0) & ~O_NONBLOCK)
        try client.send(leftover)
      }
      #expect(await eventually(within: hangBound) { received.withLock { $0.count } == sent })
      let inOrder = received.withLock {
        $0.enumerated().allSatisfy { $0.element.hasPrefix(String(format: "%09d", $0.offset)) }
      }
      #expect(inOrder)
    }
  }

  @Test func stopClosesEveryWebSocketWith1001() async throws {
    // The idle connection must outlive any pause of a loaded machine until the count is seen.
    var configuration = HTTPServerConfiguration()
    configuration.headTimeout = hangBound
    let server = try HTTPServer.start(
      host: "127.0.0.1", port: 0, routes: FixtureRoutes.standard(), configuration: configuration)
    let port = server.boundPort
    let clients = try await blocking { try (0..<3).map { _ in try RawClient.webSocket(port: port) } }
    let idle = try RawClient(port: port)
    #expect(await eventually { server.connectionCount == 4 })
    let stopping = Task { await server.stop() }
    let codes = try await blocking {
      clients.map { client in
        let code = client.readCloseCode()
        try? client.send(RawClient.frame(opcode: 8, [0x03, 0xE9]))
        return code
      }
    }
    #expect(codes == [1001, 1001, 1001])
    await stopping.value
    #expect(server.connectionCount == 0)
    #expect(try await blocking { idle.readsEnd() })
    #expect(throws: ClientSocketError.self) { try RawClient(port: port) }
  }

  @Test func startErrorsNameTheAddress() async throws {
    let server = try HTTPServer.start(host: "127.0.0.1", port: 0, routes: HTTPRoutes())
    #expect(throws: HTTPServerStartError.addressInUse(address: "127.0.0.1:\(server.boundPort)")) {
      try HTTPServer.start(host: "127.0.0.1", port: server.boundPort, routes: HTTPRoutes())
    }
    await server.stop()
    do {
      _ = try HTTPServer.start(host: "203.0.113.7", port: 0, routes: HTTPRoutes())
      Issue.record("listened on an address this machine does not have")
    } catch {
      guard case .badAddress(let address, _) = error else {
        Issue.record("expected badAddress, got \(error)")
        return
      }
      #expect(address == "203.0.113.7:0")
    }
    do {
      _ = try HTTPServer.start(host: "no such host.invalid", port: 0, routes: HTTPRoutes())
      Issue.record("listened on a name that does not resolve")
    } catch {
      #expect(error.description.hasPrefix("cannot listen on no such host.invalid:0: "))
    }
    if getuid() != 0 {
      #expect(throws: HTTPServerStartError.permissionDenied(address: "127.0.0.1:1")) {
        try HTTPServer.start(host: "127.0.0.1", port: 1, routes: HTTPRoutes())
      }
    }
  }
}
