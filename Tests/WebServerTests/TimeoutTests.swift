// The head timeout (slowloris) and the close timeout, in virtual time: the server's clock is a
// ManualClock that the test moves, so the verdicts do not depend on the machine's speed.
import Streams
import StreamsTesting
import Testing
import WebServer

@Suite struct TimeoutTests {
  @Test func aHeadNotCompleteInTenSecondsIsClosed() async throws {
    let clock = ManualClock()
    try await withServer(clock: clock) { server in
      let port = server.boundPort
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n")
      try await clock.waitForSleepers(1)
      clock.advance(by: .seconds(10))
      #expect(try await blocking { client.readsEnd() })
      #expect(await eventually { server.connectionCount == 0 })
    }
  }

  @Test func aHeadCompletedJustBeforeTheTimeoutIsAnswered() async throws {
    let clock = ManualClock()
    try await withServer(clock: clock) { server in
      let port = server.boundPort
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.1\r\n")
      try await clock.waitForSleepers(1)
      clock.advance(by: .milliseconds(9_999))
      try client.send("Host: x\r\n\r\n")
      let status = try await blocking { client.readResponse()?.status }
      #expect(status == 200)
    }
  }

  @Test func aSilentConnectionIsClosedAfterTheHeadTimeout() async throws {
    let clock = ManualClock()
    try await withServer(clock: clock) { server in
      let client = try RawClient(port: server.boundPort)
      try await clock.waitForSleepers(1)
      clock.advance(by: .seconds(10))
      #expect(try await blocking { client.readsEnd() })
    }
  }

  @Test func aClientThatNeverAnswersTheCloseIsClosedAfterTheCloseTimeout() async throws {
    let clock = ManualClock()
    let routes = FixtureRoutes.standard { routes in
      routes.webSocket("/bye") { socket in socket.close(code: 4000, reason: "bye") }
    }
    try await withServer(routes: routes, clock: clock) { server in
      let port = server.boundPort
      let client = try await blocking { try RawClient.webSocket(port: port, path: "/bye") }
      let code = try await blocking { client.readCloseCode() }
      #expect(code == 4000)
      // The server waits for the client's close frame, which never comes.
      try await clock.waitForSleepers(1)
      clock.advance(by: .seconds(2))
      #expect(try await blocking { client.readsEnd() })
    }
  }
}
