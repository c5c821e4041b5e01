// One client connection as the event loop holds it: its buffers, its phase, its timer. Touched on
// the loop's thread only.
import Streams

/// Where a connection is in its life.
enum ConnectionPhase {
  /// Waiting for a request head (the head timeout runs).
  case head
  /// The head is read; waiting for its `Content-Length` body (the head timeout still runs).
  case body(ParsedHead, headLength: Int)
  /// A handler is answering; nothing more is read until it has.
  case responding(keepAlive: Bool, isHead: Bool)
  /// An open WebSocket.
  case webSocket
  /// The server sent its close frame and waits for the client's (the close timeout runs).
  case webSocketClosing
  /// Done: what is queued is written, then the sending side is shut, and what the client still
  /// sends is read and dropped until it closes (the close timeout runs). Closing at once could
  /// reset the connection and lose the last answer.
  case draining
}

final class LoopConnection {
  let id: UInt64
  let descriptor: Int32
  /// Counted in the server's connections (a connection refused with 503 is not).
  let counted: Bool
  var phase: ConnectionPhase = .head

  var input: [UInt8] = []
  var inputStart = 0
  /// How far the search for the end of the current head has looked.
  var headScanned = 0
  var output: [UInt8] = []
  var outputSent = 0
  var writesShut = false

  /// What the poller watches it for now.
  var interest: Readiness = [.readable]
  var timer: ClockWake?
  var timerGeneration: UInt64 = 0

  var socket: WebSocketConnection?
  var reader: WebSocketMessageReader?
  /// The handler has more than it may read ahead unread: the client is not read.
  var inboxPaused = false
  /// What the loop last told the socket's outbox it holds unsent.
  var reportedBuffered = 0

  init(id: UInt64, descriptor: Int32, counted: Bool) {
    self.id = id
    self.descriptor = descriptor
    self.counted = counted
  }

  var unsentCount: Int { output.count - outputSent }

  /// What the poller should watch for in this phase.
  var wantedInterest: Readiness {
    var wanted: Readiness = []
    switch phase {
    case .head, .body, .webSocketClosing, .draining: wanted.insert(.readable)
    case .webSocket: if !inboxPaused { wanted.insert(.readable) }
    case .responding: break
    }
    if unsentCount > 0 { wanted.insert(.writable) }
    return wanted
  }

  /// Drops the input before `inputStart` once it is a good part of the buffer.
  func compactInput() {
    if inputStart == input.count {
      input.removeAll(keepingCapacity: input.capacity <= 1 << 16)
      inputStart = 0
      headScanned = 0
    } else if inputStart > 1 << 14 {
      input.removeFirst(inputStart)
      headScanned = max(0, headScanned - inputStart)
      inputStart = 0
    }
  }

  /// Drops the output already written.
  func compactOutput() {
    if outputSent == output.count {
      output.removeAll(keepingCapacity: output.capacity <= 1 << 16)
      outputSent = 0
    } else if outputSent > 1 << 16 {
      output.removeFirst(outputSent)
      outputSent = 0
    }
  }
}
