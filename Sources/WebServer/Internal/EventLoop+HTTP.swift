// Requests on the loop: a head is parsed as it arrives, its body awaited, and the request handed
// to its route's handler as a task (or answered here: 404, 405, 426, the refusals). The answer
// comes back as a command; a kept-alive connection then reads its next request.

extension EventLoop {
  /// Reads requests from the connection's input until one is being answered or more is needed.
  func processRequests(_ connection: LoopConnection) {
    while connections[connection.id] != nil {
      switch connection.phase {
      case .head:
        let parse = HTTPHeadParser.parse(
          connection.input, from: connection.inputStart, scanned: connection.headScanned,
          maxHeadBytes: configuration.maxHeadBytes)
        switch parse {
        case .incomplete:
          connection.headScanned = connection.input.count
          return
        case .refused(let status, let reason):
          refuse(connection, status: status, reason: reason)
          return
        case .head(let head, let length):
          if head.contentLength > configuration.maxBodyBytes {
            refuse(connection, status: 413, reason: "body over \(configuration.maxBodyBytes) bytes")
            return
          }
          connection.phase = .body(head, headLength: length)
        }
      case .body(let head, let headLength):
        let start = connection.inputStart + headLength
        guard connection.input.count - start >= head.contentLength else { return }
        let body = Array(connection.input[start..<(start + head.contentLength)])
        connection.inputStart = start + head.contentLength
        connection.headScanned = connection.inputStart
        dispatch(connection, head, body: body)
        connection.compactInput()
      case .responding, .webSocket, .webSocketClosing, .draining:
        return
      }
    }
  }

  /// Answers `status` with a one-line reason and closes.
  private func refuse(_ connection: LoopConnection, status: Int, reason: String) {
    connection.output.append(contentsOf: HTTPResponse.text(reason + "\n", status: status).encoded(keepAlive: false))
    startDraining(connection)
  }

  private func dispatch(_ connection: LoopConnection, _ head: ParsedHead, body: [UInt8]) {
    let request = HTTPRequest(
      method: head.method, path: head.path, query: head.query, headers: head.headers, body: body)
    if let handler = routes.sockets[head.path] {
      guard WebSocketHandshake.isUpgrade(head) else {
        var response = HTTPResponse.text("this path speaks WebSocket only\n", status: 426)
        response.headers.add("Upgrade", "websocket")
        answerHere(connection, response, keepAlive: head.keepAlive, isHead: head.method == "HEAD")
        return
      }
      switch WebSocketHandshake.answer(head, allowedOrigins: configuration.allowedOrigins) {
      case .success(let accept): acceptWebSocket(connection, request, accept: accept, handler: handler)
      case .failure(let refusal): answerHere(connection, refusal.response, keepAlive: false, isHead: false)
      }
      return
    }
    guard let handler = routes.plain[head.path] else {
      answerHere(
        connection, .text("not found\n", status: 404), keepAlive: head.keepAlive, isHead: head.method == "HEAD")
      return
    }
    guard head.method == "GET" || head.method == "HEAD" else {
      var response = HTTPResponse.text("method \(head.method) not allowed\n", status: 405)
      response.headers.add("Allow", "GET, HEAD")
      answerHere(connection, response, keepAlive: head.keepAlive, isHead: false)
      return
    }
    disarm(connection)
    connection.phase = .responding(keepAlive: head.keepAlive, isHead: head.method == "HEAD")
    let id = connection.id
    Task { [self] in
      let response = await handler(request)
      post(.respond(id, response))
    }
  }

  /// A response the loop makes itself, sent as a handler's would be.
  private func answerHere(_ connection: LoopConnection, _ response: HTTPResponse, keepAlive: Bool, isHead: Bool) {
    connection.phase = .responding(keepAlive: keepAlive, isHead: isHead)
    respond(connection, response)
  }

  /// Sends a handler's response; then the connection reads its next request or closes.
  func respond(_ connection: LoopConnection, _ response: HTTPResponse) {
    guard case .responding(let keepAlive, let isHead) = connection.phase else { return }
    let staysOpen = keepAlive && !stopping
    connection.output.append(contentsOf: response.encoded(keepAlive: staysOpen, includeBody: !isHead))
    guard staysOpen else {
      startDraining(connection)
      return
    }
    connection.phase = .head
    arm(connection, after: configuration.headTimeout)
    flush(connection)
    guard connections[connection.id] != nil else { return }
    // A request the client sent before this answer (pipelining) is read now.
    if connection.inputStart < connection.input.count { processInput(connection) }
  }
}
