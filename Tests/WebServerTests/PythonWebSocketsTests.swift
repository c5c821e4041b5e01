// Another implementation of RFC 6455 talks to the server: Python's websockets, with 500 clients at
// once, each echoing messages and closing cleanly.
import Testing
import WebServer

@Suite struct PythonWebSocketsTests {
  @Test(.enabled(if: PythonClients.websockets.isAvailableOrCI, Comment(rawValue: PythonClients.websockets.skipNote)))
  func fiveHundredClientsAtOnceEachGetTheirEchoesAndACleanClose() async throws {
    try await withServer { server in
      let output = try await PythonClients.echo(url: "ws://127.0.0.1:\(server.boundPort)/ws", clients: 500, messages: 5)
      #expect(output == "ok")
      #expect(await eventually { server.connectionCount == 0 })
    }
  }

  @Test(.enabled(if: PythonClients.websockets.isAvailableOrCI, Comment(rawValue: PythonClients.websockets.skipNote)))
  func aBrowserLikeClientFromAnotherOriginIsRefused() async throws {
    try await withServer { server in
      let output = try await PythonClients.echo(
        url: "ws://127.0.0.1:\(server.boundPort)/ws", clients: 1, messages: 1, origin: "http://evil.example")
      #expect(output.contains("403"), "\(output)")
    }
  }
}
