// The loopback test server itself: query decoding, slow bodies, connection bookkeeping, stopping.
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(10))) struct LoopbackHTTPServerTests {
  private func started(_ handler: @escaping LoopbackHTTPServer.Handler) throws -> LoopbackHTTPServer {
    let server = LoopbackHTTPServer(handler: handler)
    try server.start()
    return server
  }

  @Test func queryStringDecodingReadsPlusAsSpaceAndPercentAsBytes() {
    let parameters = QueryString.decode("a=1+2&b=%E5%AE%87%2B&flag&&d=%zz%4&e=x=y")
    #expect(
      parameters == [
        QueryParameter("a", "1 2"), QueryParameter("b", "宇+"), QueryParameter("flag", ""),
        QueryParameter("d", "%zz%4"), QueryParameter("e", "x=y"),
      ])
  }

  @Test func slowDripDeliversTheWholeBodyInPieces() async throws {
    let body = Data("0123456789abcdefghij".utf8)
    let server = try started { _ in Reply(body: body, fault: .slowDrip(chunk: 3, every: .milliseconds(2))) }
    defer { server.stop() }
    let (data, response) = try await URLSession(configuration: .ephemeral).data(from: server.url("/drip"))
    #expect(data == body)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(server.requests.first?.clientClosedEarly == false)
  }

  @Test func handlerCanBeReplacedBetweenRequests() async throws {
    let server = try started { _ in .json("1") }
    defer { server.stop() }
    let session = URLSession(configuration: .ephemeral)
    let (first, _) = try await session.data(from: server.url("/a"))
    server.handler = { request in .json(request.path) }
    let (second, _) = try await session.data(from: server.url("/b?x=1"))
    #expect(String(decoding: first, as: UTF8.self) == "1")
    #expect(String(decoding: second, as: UTF8.self) == "/b")
    #expect(server.requests.map(\.path) == ["/a", "/b"])
    #expect(server.requests.map(\.index) == [0, 1])
  }

  @Test func stopClosesHeldConnectionsAndReleasesWaiters() async throws {
    let server = try started { _ in .fault(.noAnswer) }
    let request = Task {
      try await URLSession(configuration: .ephemeral).data(from: server.url("/held"))
    }
    let log = await server.waitForRequests(count: 1)
    #expect(log.count == 1)
    #expect(server.openConnectionCount == 1)
    server.stop()
    #expect(server.openConnectionCount == 0)
    // The request never closed early, and the server is gone: the wait ends with nil.
    #expect(await server.waitForEarlyClose(ofRequest: 0) == nil)
    // Not cancelled: cancelling corelibs' own `data(from:)` while it completes can deadlock
    // (URLSessionTask.cancel waits for the work queue under the task's status lock). The
    // stopped server closed the connection, so the request ends on its own.
    await #expect(throws: (any Error).self) { try await request.value }
  }

  @Test func closedPortRefusesConnections() async throws {
    let port = try LoopbackHTTPServer.closedPort()
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
    let error = await #expect(throws: URLError.self) {
      try await URLSession(configuration: .ephemeral).data(from: url)
    }
    #expect(error?.code == .cannotConnectToHost)
  }
}
