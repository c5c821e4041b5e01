// The consumer side of pulled iteration: elements pushed to a task that pulls them with `next()`.
// It lives inside a locked state (the pulled adapter's, AsyncFeed's); its methods return the
// continuation to resume, which the caller resumes after releasing the lock.

/// A continuation to resume outside the lock, and what to resume it with.
@usableFromInline
struct Resumption<Element: Sendable>: Sendable {
  @usableFromInline let continuation: UnsafeContinuation<Element?, any Error>
  @usableFromInline let result: Result<Element?, any Error>

  @inlinable init(_ continuation: UnsafeContinuation<Element?, any Error>, _ result: Result<Element?, any Error>) {
    self.continuation = continuation
    self.result = result
  }

  @inlinable func resume() { continuation.resume(with: result) }
}

/// Elements pushed for one consumer, in order, followed by an end (finish or failure).
@usableFromInline
struct PullBuffer<Element: Sendable>: Sendable {
  @usableFromInline enum End: Sendable {
    case finished
    case failed(any Error)
    /// The error has been handed over; from now on the sequence only finishes.
    case delivered
  }

  @usableFromInline var queue = FIFOQueue<Element>()
  @usableFromInline var end: End?
  /// The consumer waiting in `next()`, if any.
  @usableFromInline var consumer: UnsafeContinuation<Element?, any Error>?

  @inlinable init() {}

  /// Whether the sequence has ended (finished, failed or cancelled) for producers.
  @inlinable var isEnded: Bool { end != nil }

  /// How many elements wait for the consumer.
  @inlinable var count: Int { queue.count }

  /// Hands `element` to the waiting consumer, or queues it. Ignored once the sequence ended.
  @inlinable mutating func send(_ element: Element) -> Resumption<Element>? {
    guard end == nil else { return nil }
    if let consumer {
      self.consumer = nil
      return Resumption(consumer, .success(element))
    }
    queue.append(element)
    return nil
  }

  /// Ends the sequence after the queued elements: with `error`, or finished when nil.
  @inlinable mutating func finish(throwing error: (any Error)? = nil) -> Resumption<Element>? {
    guard end == nil else { return nil }
    end = error.map(End.failed) ?? .finished
    guard let consumer, queue.count == 0 else { return nil }
    self.consumer = nil
    return Resumption(consumer, takeEnd())
  }

  /// Ends the sequence at once, dropping queued elements: the consumer was cancelled.
  @inlinable mutating func cancel() -> Resumption<Element>? {
    queue.removeAll()
    end = .delivered
    guard let consumer else { return nil }
    self.consumer = nil
    return Resumption(consumer, .success(nil))
  }

  /// The next element or end when one is ready, nil when the consumer must wait.
  @inlinable mutating func poll() -> Result<Element?, any Error>? {
    if let element = queue.popFirst() { return .success(element) }
    if end != nil { return takeEnd() }
    return nil
  }

  /// Parks the consumer; returns a resumption at once when something was ready meanwhile, or
  /// when another consumer already waits (``SecondConsumerError``: a second consumer would take
  /// the first one's place and its elements, so it is told at once and the first goes on).
  @inlinable mutating func wait(_ continuation: UnsafeContinuation<Element?, any Error>) -> Resumption<Element>? {
    guard consumer == nil else { return Resumption(continuation, .failure(SecondConsumerError())) }
    if let ready = poll() { return Resumption(continuation, ready) }
    consumer = continuation
    return nil
  }

  @inlinable mutating func takeEnd() -> Result<Element?, any Error> {
    switch end {
    case .failed(let error):
      end = .delivered
      return .failure(error)
    case .finished, .delivered, nil:
      return .success(nil)
    }
  }
}
