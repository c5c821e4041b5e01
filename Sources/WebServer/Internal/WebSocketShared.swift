// What a WebSocket's handler and the event loop share, decided under one lock: the outbox (frames
// the handler sent that the loop has not taken, and how much the loop still holds unsent), the
// inbox (text messages the handler has not read), and whether the connection is closed. Every
// method only decides and returns what the caller must do after the lock is released.
import Streams

struct WebSocketShared {
  /// The loop should take the outbox (it is posted once until the loop takes it).
  enum SendAction {
    case postUpdate
    case none
  }

  var closed = false
  /// Encoded frames sent by the handler, not yet taken by the loop.
  var pendingFrames: [[UInt8]] = []
  var pendingBytes = 0
  /// Bytes the loop holds for this client that its socket has not taken yet.
  var loopBufferedBytes = 0
  /// A close the handler (or the outbox limit) asked for, not yet taken by the loop.
  var closeRequest: (code: UInt16, reason: String)?
  var updatePosted = false

  var messages = FIFOQueue<String>()
  var unreadBytes = 0
  var readingPaused = false
  var waiter: CheckedContinuation<String?, Never>?

  /// A handler's send of `frame`: queued, or refused past `limit` (which closes the connection
  /// with 1008), or refused because the connection is closed.
  mutating func send(_ frame: [UInt8], limit: Int) -> (WebSocketSendOutcome, SendAction) {
    if closed { return (.closed, .none) }
    if pendingBytes + loopBufferedBytes + frame.count > limit {
      closed = true
      closeRequest = (CloseCode.policyViolation, "outbox over \(limit) bytes: the client is not reading")
      return (.outboxFull, requestUpdate())
    }
    pendingFrames.append(frame)
    pendingBytes += frame.count
    return (.queued, requestUpdate())
  }

  /// A handler's close.
  mutating func close(code: UInt16, reason: String) -> SendAction {
    if closed { return .none }
    closed = true
    closeRequest = (code, reason)
    return requestUpdate()
  }

  private mutating func requestUpdate() -> SendAction {
    if updatePosted { return .none }
    updatePosted = true
    return .postUpdate
  }

  /// The loop takes the outbox and any close request; the frames now count as its own.
  mutating func takeUpdate() -> (frames: [[UInt8]], close: (code: UInt16, reason: String)?) {
    updatePosted = false
    let frames = pendingFrames
    pendingFrames = []
    loopBufferedBytes += pendingBytes
    pendingBytes = 0
    let close = closeRequest
    closeRequest = nil
    return (frames, close)
  }

  /// The loop received a text message: handed to a waiting reader (resume it after the lock),
  /// or queued. Returns whether reading from the client should pause, with more than
  /// `readAhead` bytes unread.
  mutating func deliver(_ text: String, readAhead: Int) -> (resume: CheckedContinuation<String?, Never>?, pause: Bool) {
    if let waiter {
      self.waiter = nil
      return (waiter, false)
    }
    messages.append(text)
    unreadBytes += text.utf8.count
    if unreadBytes > readAhead, !readingPaused {
      readingPaused = true
      return (nil, true)
    }
    return (nil, false)
  }

  /// The handler asks for the next message: one queued (and whether reading may resume), the end
  /// (nil, once closed and drained), or nothing yet (the caller stores its continuation).
  enum Next {
    case message(String, resumeReading: Bool)
    case end
    case wait
  }

  mutating func next(readAhead: Int) -> Next {
    if let text = messages.popFirst() {
      unreadBytes -= text.utf8.count
      let resume = readingPaused && unreadBytes <= readAhead
      if resume { readingPaused = false }
      return .message(text, resumeReading: resume)
    }
    // A second reader waiting at the same time gets the end rather than a lost wake-up.
    if finished || waiter != nil { return .end }
    return .wait
  }

  /// No message will come any more (the loop closed the connection or the handshake ended).
  var finished = false

  /// The loop ends the connection: closed, and the waiting reader (resumed with nil after the
  /// lock) learns it.
  mutating func finish() -> CheckedContinuation<String?, Never>? {
    closed = true
    finished = true
    let waiter = self.waiter
    self.waiter = nil
    return waiter
  }
}
