// One accepted WebSocket as its handler sees it: the text messages the client sends, a send that
// never blocks (a client that stops reading is closed, not waited for), and the close.
import Synchronization

/// What ``WebSocketConnection/send(_:)`` did with a message.
public enum WebSocketSendOutcome: Sendable, Hashable {
  /// Queued for the client.
  case queued
  /// Refused: the client had more than ``HTTPServerConfiguration/outboxLimitBytes`` queued and
  /// not taken, so it is being closed with 1008 (policy violation).
  case outboxFull
  /// Refused: the connection is closed or closing.
  case closed
}

/// An open WebSocket connection, handed to a ``WebSocketHandler``.
///
/// ```swift
/// routes.webSocket("/ws") { socket in
///   for await text in socket.messages {
///     if socket.send("you said: \(text)") != .queued { break }
///   }
/// }   // returning closes the connection (1000) if it is still open
/// ```
///
/// - **Messages**: ``messages`` yields each text message in order and ends when the connection
///   closes (by either side, or by a protocol error). One reader at a time. While more than
///   ``HTTPServerConfiguration/maxMessageBytes`` are unread, the server stops reading the client
///   (TCP pushes back on it) until the handler catches up.
/// - **Sending** never waits: a message is queued, or refused when the client's outbox is full
///   (the client is then closed with 1008) or the connection is closed.
/// - **Closing** sends a close frame; the socket closes when the client answers it, or after
///   ``HTTPServerConfiguration/closeTimeout``.
public final class WebSocketConnection: Sendable {
  /// The upgrade request (its path, query and headers: the `Origin`, cookies, parameters).
  public let request: HTTPRequest

  let id: UInt64
  private let loop: EventLoop
  private let outboxLimit: Int
  private let readAhead: Int
  let shared = Mutex(WebSocketShared())

  init(id: UInt64, request: HTTPRequest, loop: EventLoop, outboxLimit: Int, readAhead: Int) {
    self.id = id
    self.request = request
    self.loop = loop
    self.outboxLimit = outboxLimit
    self.readAhead = readAhead
  }

  /// The text messages from the client, in order; ends when the connection closes.
  public var messages: WebSocketMessages { WebSocketMessages(connection: self) }

  /// Whether the connection is closed or closing: sends are refused from then on.
  public var isClosed: Bool { shared.withLock { $0.closed } }

  /// Queues `text` as one text message, without waiting.
  @discardableResult
  public func send(_ text: String) -> WebSocketSendOutcome {
    let frame = WebSocketFrame.encode(.text, text.utf8)
    let (outcome, action) = shared.withLock { $0.send(frame, limit: outboxLimit) }
    if case .postUpdate = action { loop.post(.socketUpdate(id)) }
    return outcome
  }

  /// Starts the closing handshake with `code` (1000: normal; 1001: going away; 4000–4999 for
  /// the application's own) and a `reason` of at most 123 bytes (longer is cut). Nothing
  /// happens when the connection is already closed or closing.
  public func close(code: UInt16 = 1000, reason: String = "") {
    let action = shared.withLock { $0.close(code: code, reason: reason) }
    if case .postUpdate = action { loop.post(.socketUpdate(id)) }
  }

  /// The next message, or nil at the end (or when another reader is already waiting, or the
  /// task is cancelled).
  func nextMessage() async -> String? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
        let (next, stored) = shared.withLock { state -> (WebSocketShared.Next, Bool) in
          let next = state.next(readAhead: readAhead)
          // Checked under the lock: a cancellation either came before (seen here) or comes
          // after the continuation is stored (and its handler takes it).
          guard case .wait = next, !Task.isCancelled else { return (next, false) }
          state.waiter = continuation
          return (next, true)
        }
        switch next {
        case .message(let text, let resumeReading):
          if resumeReading { loop.post(.resumeReading(id)) }
          continuation.resume(returning: text)
        case .end:
          continuation.resume(returning: nil)
        case .wait:
          // Not stored: the task was cancelled before it could wait.
          if !stored { continuation.resume(returning: nil) }
        }
      }
    } onCancel: {
      shared.withLock { state in
        let waiter = state.waiter
        state.waiter = nil
        return waiter
      }?.resume(returning: nil)
    }
  }
}

/// The text messages of a ``WebSocketConnection``, as an async sequence; ends when the
/// connection closes.
public struct WebSocketMessages: AsyncSequence, Sendable {
  /// Each element is one whole text message.
  public typealias Element = String

  let connection: WebSocketConnection

  /// An iterator over the messages.
  public func makeAsyncIterator() -> Iterator {
    Iterator(connection: connection)
  }

  /// Waits for each message in turn.
  public struct Iterator: AsyncIteratorProtocol {
    let connection: WebSocketConnection

    /// The next message, or nil once the connection is closed (and every message read).
    public mutating func next() async -> String? {
      await connection.nextMessage()
    }
  }
}
