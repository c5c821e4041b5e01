// The loop's reads and writes for one connection: what a readiness report leads to, writing
// what is queued, draining, and closing.
import LineIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension EventLoop {
  func handle(_ connection: LoopConnection, _ readiness: Readiness) {
    if readiness.contains(.writable) {
      flush(connection)
      guard connections[connection.id] != nil else { return }
    }
    if readiness.contains(.readable), connection.wantedInterest.contains(.readable) {
      read(connection)
    } else if readiness.contains(.hangUp) {
      // Gone both ways (or failed) while not being read: nothing more can be sent to it.
      closeNow(connection)
    }
  }

  private func read(_ connection: LoopConnection) {
    switch SocketCalls.receive(connection.descriptor, into: scratch) {
    case .moved(let count):
      if case .draining = connection.phase { return }
      connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
      processInput(connection)
    case .wouldBlock:
      return
    case .endOfStream, .failed:
      // The client's end of stream (or a reset). A request it finished sending before that still deserves an
      // answer only if it is being answered; anything else ends here.
      closeNow(connection)
    }
  }

  /// Parses what has arrived, as the connection's phase reads it.
  func processInput(_ connection: LoopConnection) {
    switch connection.phase {
    case .head, .body: processRequests(connection)
    case .webSocket, .webSocketClosing, .responding, .draining: break
    }
    // Also right after an upgrade: frames the client sent behind its handshake are in the input.
    switch connection.phase {
    case .webSocket, .webSocketClosing: processFrames(connection)
    case .head, .body, .responding, .draining: break
    }
    if connections[connection.id] != nil { updateInterest(connection) }
  }

  /// Appends `bytes` to what the connection sends and writes what the socket takes now.
  func send(_ connection: LoopConnection, _ bytes: [UInt8]) {
    connection.output.append(contentsOf: bytes)
    flush(connection)
  }

  /// Writes what the socket takes of the queued output.
  func flush(_ connection: LoopConnection) {
    while connection.outputSent < connection.output.count {
      switch SocketCalls.send(connection.descriptor, connection.output, from: connection.outputSent) {
      case .moved(let count):
        connection.outputSent += count
      case .wouldBlock:
        connection.compactOutput()
        reportBuffered(connection)
        updateInterest(connection)
        return
      case .endOfStream, .failed:
        closeNow(connection)
        return
      }
    }
    connection.compactOutput()
    reportBuffered(connection)
    if case .draining = connection.phase, !connection.writesShut {
      connection.writesShut = true
      ServerSockets.shutdownWrites(connection.descriptor)
    }
    updateInterest(connection)
  }

  /// Tells a WebSocket's outbox how much the loop still holds for it (counted against its limit).
  private func reportBuffered(_ connection: LoopConnection) {
    guard let socket = connection.socket, connection.reportedBuffered != connection.unsentCount else { return }
    let unsent = connection.unsentCount
    connection.reportedBuffered = unsent
    socket.shared.withLock { $0.loopBufferedBytes = unsent }
  }

  func updateInterest(_ connection: LoopConnection) {
    let wanted = connection.wantedInterest
    guard wanted != connection.interest else { return }
    connection.interest = wanted
    poller.change(connection.descriptor, token: connection.id, interest: wanted)
  }

  /// Queues nothing more: writes what is queued, shuts the sending side, then reads and drops
  /// until the client closes or the close timeout passes.
  func startDraining(_ connection: LoopConnection) {
    connection.phase = .draining
    connection.input = []
    connection.inputStart = 0
    arm(connection, after: configuration.closeTimeout)
    flush(connection)
  }

  /// Closes the socket and forgets the connection; its WebSocket's messages end.
  func closeNow(_ connection: LoopConnection) {
    guard connections.removeValue(forKey: connection.id) != nil else { return }
    disarm(connection)
    poller.remove(connection.descriptor)
    close(connection.descriptor)
    if connection.counted { connectionCount.subtract(1, ordering: .relaxed) }
    if let socket = connection.socket {
      socket.shared.withLock { $0.finish() }?.resume(returning: nil)
    }
    connectionRemoved()
  }
}
