// The consumer side shared by the operators that produce elements from tasks of their own
// (debounce, switchMap, merge): a FIFO of produced elements, the end of the sequence, and the
// one consumer waiting in `next()`. It lives inside each operator's locked state, so producing an
// element and deciding whether it may be produced happen atomically; its methods return the
// continuation to resume, which the caller resumes after releasing the lock.

/// A suspended consumer and what to resume it with.
struct Resumption<Element>: Sendable where Element: Sendable {
  let continuation: UnsafeContinuation<Element?, any Error>
  let result: Result<Element?, any Error>

  func resume() { continuation.resume(with: result) }
}

/// Elements produced for one consumer, in order, followed by an end (finish or failure).
struct Downstream<Element: Sendable> {
  private enum End {
    case finished
    case failed(any Error)
    /// The error has been delivered; from now on the sequence only finishes.
    case delivered
  }

  private var buffer: [Element] = []
  private var head = 0
  private var end: End?
  private var consumer: UnsafeContinuation<Element?, any Error>?

  /// Whether the sequence has ended (finished, failed or cancelled) for producers.
  var isEnded: Bool { end != nil }

  /// How many produced elements wait for the consumer.
  var bufferedCount: Int { buffer.count - head }

  /// Hands `element` to a waiting consumer, or buffers it. Ignored once the sequence ended.
  mutating func send(_ element: Element) -> Resumption<Element>? {
    guard end == nil else { return nil }
    if let consumer {
      self.consumer = nil
      return Resumption(continuation: consumer, result: .success(element))
    }
    buffer.append(element)
    return nil
  }

  /// Ends the sequence after the buffered elements: with `error`, or finished when nil.
  mutating func finish(throwing error: (any Error)? = nil) -> Resumption<Element>? {
    guard end == nil else { return nil }
    end = error.map(End.failed) ?? .finished
    guard let consumer, bufferedCount == 0 else { return nil }
    self.consumer = nil
    return Resumption(continuation: consumer, result: takeEnd())
  }

  /// Ends the sequence at once, dropping buffered elements: the consumer was cancelled.
  mutating func cancel() -> Resumption<Element>? {
    buffer.removeAll()
    head = 0
    end = .finished
    guard let consumer else { return nil }
    self.consumer = nil
    return Resumption(continuation: consumer, result: .success(nil))
  }

  /// The next element or end when one is ready, nil when the consumer must wait.
  mutating func poll() -> Result<Element?, any Error>? {
    if head < buffer.count {
      let element = buffer[head]
      head += 1
      if head == buffer.count {
        buffer.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 64, head * 2 >= buffer.count {
        buffer.removeFirst(head)
        head = 0
      }
      return .success(element)
    }
    if end != nil { return takeEnd() }
    return nil
  }

  /// Parks the consumer; returns a resumption at once when something was ready meanwhile.
  mutating func wait(_ continuation: UnsafeContinuation<Element?, any Error>) -> Resumption<Element>? {
    precondition(consumer == nil, "Internal inconsistency: two consumers iterate one sequence")
    if let ready = poll() { return Resumption(continuation: continuation, result: ready) }
    consumer = continuation
    return nil
  }

  private mutating func takeEnd() -> Result<Element?, any Error> {
    switch end {
    case .failed(let error):
      end = .delivered
      return .failure(error)
    case .finished, .delivered, nil:
      return .success(nil)
    }
  }
}
