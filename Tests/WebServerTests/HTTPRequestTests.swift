// Plain HTTP/1.1 over a raw socket: answers, keep-alive, pipelining, and each refusal with its
// status (404, 405, 400, 413, 431, 501).
import Testing
import WebServer

@Suite struct HTTPRequestTests {
  @Test func answersARouteAndKeepsTheConnectionForTheNext() async throws {
    try await withServer { server in
      let port = server.boundPort
      let answers = try await blocking {
        let client = try RawClient(port: port)
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = client.readResponse()
        try client.send("GET /search?q=abba+gold HTTP/1.1\r\nHost: x\r\n\r\n")
        let second = client.readResponse()
        return [first, second].map { $0.map { "\($0.status) \($0.body)" } }
      }
      #expect(answers == ["200 hello\n", #"200 {"q":"abba gold"}"#])
    }
  }

  @Test func answersPipelinedRequestsInOrder() async throws {
    try await withServer { server in
      let port = server.boundPort
      let bodies = try await blocking {
        let client = try RawClient(port: port)
        try client.send(
          "GET /search?q=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /search?q=2 HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        return (0..<3).map { _ in client.readResponse()?.body }
      }
      #expect(bodies == [#"{"q":"1"}"#, #"{"q":"2"}"#, "hello\n"])
    }
  }

  @Test func unknownPathsAndTraversalAre404AndTheConnectionStays() async throws {
    try await withServer { server in
      let port = server.boundPort
      let statuses = try await blocking {
        let client = try RawClient(port: port)
        var statuses: [Int?] = []
        for path in [
          "/nothing", "/../etc/passwd", "/hello/../hello", "/%2e%2e/etc/passwd", "/hello/", "//hello", "/hello",
        ] {
          try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
          statuses.append(client.readResponse()?.status)
        }
        return statuses
      }
      #expect(statuses == [404, 404, 404, 404, 404, 404, 200])
    }
  }

  @Test func headAnswersWithoutABodyAndOtherMethodsAre405() async throws {
    try await withServer { server in
      let port = server.boundPort
      let (head, post) = try await blocking {
        let client = try RawClient(port: port)
        try client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = client.read { RawClient.headEnd($0) }.map { String(decoding: $0, as: UTF8.self) }
        try client.send("POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        return (head, client.readResponse())
      }
      #expect(head?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)
      #expect(head?.contains("Content-Length: 6\r\n") == true)
      #expect(post?.status == 405)
      #expect(post?.head.contains("Allow: GET, HEAD") == true)
    }
  }

  @Test func aHeadOverTheLimitIs431AndClosed() async throws {
    try await withServer { server in
      let port = server.boundPort
      let (response, closed) = try await blocking {
        let client = try RawClient(port: port)
        let field = "X-Filler: " + String(repeating: "a", count: 20_000) + "\r\n"
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n" + field + "\r\n")
        return (client.readResponse(), client.readsEnd())
      }
      #expect(response?.status == 431)
      #expect(closed)
    }
  }

  @Test func malformedHeadsAre400AndClosed() async throws {
    let heads = [
      "GARBAGE\r\n\r\n",
      "GET /hello HTTP/1.1\r\n\r\n",  // no Host
      "GET /hello HTTP/1.1\r\nHost: x\r\n folded: line\r\n\r\n",
      "GET /hello HTTP/1.1\r\nHost: x\r\nBad Field: y\r\n\r\n",
      "GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
      "GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
      "GET hello HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    try await withServer { server in
      let port = server.boundPort
      for head in heads {
        let (status, closed) = try await blocking {
          let client = try RawClient(port: port)
          try client.send(head)
          return (client.readResponse()?.status, client.readsEnd())
        }
        #expect(status == 400, "\(head.debugDescription)")
        #expect(closed, "\(head.debugDescription)")
      }
    }
  }

  @Test func chunkedBodiesAre501AndLargeBodiesAre413() async throws {
    var configuration = HTTPServerConfiguration()
    configuration.maxBodyBytes = 100
    try await withServer(configuration: configuration) { server in
      let port = server.boundPort
      let statuses = try await blocking {
        let chunked = try RawClient(port: port)
        try chunked.send("POST /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
        let large = try RawClient(port: port)
        try large.send("POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n")
        return [chunked.readResponse()?.status, large.readResponse()?.status]
      }
      #expect(statuses == [501, 413])
    }
  }

  @Test func http10ClosesUnlessAskedToKeepAlive() async throws {
    try await withServer { server in
      let port = server.boundPort
      let (closes, keeps) = try await blocking {
        let plain = try RawClient(port: port)
        try plain.send("GET /hello HTTP/1.0\r\n\r\n")
        let closes = plain.readResponse()?.head.contains("Connection: close") == true && plain.readsEnd()
        let kept = try RawClient(port: port)
        try kept.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        _ = kept.readResponse()
        try kept.send("GET /hello HTTP/1.0\r\nConnection: close\r\n\r\n")
        let keeps = kept.readResponse()?.status == 200
        return (closes, keeps)
      }
      #expect(closes)
      #expect(keeps)
    }
  }
}
