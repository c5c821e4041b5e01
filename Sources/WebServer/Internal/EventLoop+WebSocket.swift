// WebSockets on the loop: the upgrade, frames read and acted on, the handler's outbox taken, and
// the closing handshake from either side.

extension EventLoop {
  func acceptWebSocket(
    _ connection: LoopConnection, _ request: HTTPRequest, accept: [UInt8], handler: @escaping WebSocketHandler
  ) {
    disarm(connection)
    let socket = WebSocketConnection(
      id: connection.id, request: request, loop: self, outboxLimit: configuration.outboxLimitBytes,
      readAhead: configuration.maxMessageBytes)
    connection.socket = socket
    connection.reader = WebSocketMessageReader(
      maxMessageBytes: configuration.maxMessageBytes, acceptsBinaryMessages: configuration.acceptsBinaryMessages)
    connection.phase = .webSocket
    send(connection, accept)
    Task {
      await handler(socket)
      socket.close(code: CloseCode.normal, reason: "")
    }
  }

  /// Acts on each whole frame the input holds.
  func processFrames(_ connection: LoopConnection) {
    while connections[connection.id] != nil, var reader = connection.reader {
      if case .webSocket = connection.phase, connection.inboxPaused { break }
      let read = WebSocketFrame.read(
        connection.input, from: connection.inputStart, payloadAllowance: reader.payloadAllowance)
      switch read {
      case .incomplete:
        connection.compactInput()
        return
      case .failed(let code, let reason):
        fail(connection, code: code, reason: reason)
        return
      case .frame(let frame, let length):
        connection.inputStart += length
        let input = reader.take(frame)
        connection.reader = reader
        act(on: input, connection)
      }
    }
    connection.compactInput()
  }

  private func act(on input: WebSocketInput, _ connection: LoopConnection) {
    let open: Bool
    if case .webSocket = connection.phase { open = true } else { open = false }
    switch input {
    case .nothing:
      break
    case .text(let text):
      // Messages after the server's close frame are dropped (RFC 6455 §5.5.1).
      guard open, let socket = connection.socket else { return }
      let (waiter, pause) = socket.shared.withLock { $0.deliver(text, readAhead: configuration.maxMessageBytes) }
      waiter?.resume(returning: text)
      if pause { connection.inboxPaused = true }
    case .ping(let payload):
      if open { send(connection, WebSocketFrame.encode(.pong, payload)) }
    case .close(let code, _):
      if open {
        // The client closes first: echo its code, then end.
        finishSocket(connection)
        let reply = code.map { WebSocketFrame.close(code: $0, reason: "") } ?? WebSocketFrame.encode(.close, [])
        connection.output.append(contentsOf: reply)
      }
      startDraining(connection)
    case .failed(let code, let reason):
      fail(connection, code: code, reason: reason)
    }
  }

  /// Fails the connection (RFC 6455 §7.1.7): a close frame with `code`, then closed.
  private func fail(_ connection: LoopConnection, code: UInt16, reason: String) {
    finishSocket(connection)
    if case .webSocket = connection.phase {
      connection.output.append(contentsOf: WebSocketFrame.close(code: code, reason: reason))
    }
    startDraining(connection)
  }

  /// The server closes: its close frame after what is queued, then it waits for the client's.
  func startClosing(_ connection: LoopConnection, code: UInt16, reason: String) {
    guard case .webSocket = connection.phase else { return }
    takeOutbox(connection)
    finishSocket(connection)
    connection.phase = .webSocketClosing
    connection.inboxPaused = false
    arm(connection, after: configuration.closeTimeout)
    send(connection, WebSocketFrame.close(code: code, reason: reason))
    guard connections[connection.id] != nil else { return }
    // Frames already read may hold the client's own close.
    processFrames(connection)
    if connections[connection.id] != nil { updateInterest(connection) }
  }

  /// The handler's messages end and its sends are refused from now on.
  private func finishSocket(_ connection: LoopConnection) {
    connection.socket?.shared.withLock { $0.finish() }?.resume(returning: nil)
  }

  /// Takes the handler's queued frames and close request.
  func takeSocketUpdate(_ connection: LoopConnection) {
    guard case .webSocket = connection.phase, let socket = connection.socket else { return }
    let (frames, close) = socket.shared.withLock { $0.takeUpdate() }
    for frame in frames { connection.output.append(contentsOf: frame) }
    // The outbox now counts the taken frames as the loop's: report the true figure after writing.
    connection.reportedBuffered = -1
    if let close {
      startClosing(connection, code: close.code, reason: close.reason)
    } else {
      flush(connection)
    }
  }

  /// Moves the outbox's frames into the output without writing.
  private func takeOutbox(_ connection: LoopConnection) {
    guard let socket = connection.socket else { return }
    let (frames, _) = socket.shared.withLock { $0.takeUpdate() }
    for frame in frames { connection.output.append(contentsOf: frame) }
    connection.reportedBuffered = -1
  }

  func resumeReading(_ connection: LoopConnection) {
    guard connection.inboxPaused else { return }
    connection.inboxPaused = false
    processInput(connection)
  }
}
