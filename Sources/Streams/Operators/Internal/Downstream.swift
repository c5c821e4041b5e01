// The consumer side shared by the operators that produce elements from tasks of their own
// (debounce, switchMap, merge): a FIFO of produced elements, the end of the sequence, and the
// one consumer waiting in `next()`. It lives inside each operator's locked state, so producing an
// element and deciding whether it may be produced happen atomically; its methods return the
// continuation to resume, which the caller resumes after releasing the lock.
//
// Everything here is @inlinable / @usableFromInline: the operators are generic, and code of
// another module (Pipeline) that uses them gets them specialised only if their bodies are
// visible to it. Unspecialised, profiling found a third of their time in generic-metadata lookups.

/// A suspended consumer and what to resume it with.
@usableFromInline
struct Resumption<Element>: Sendable where Element: Sendable {
  @usableFromInline let continuation: UnsafeContinuation<Element?, any Error>
  @usableFromInline let result: Result<Element?, any Error>

  @inlinable init(continuation: UnsafeContinuation<Element?, any Error>, result: Result<Element?, any Error>) {
    self.continuation = continuation
    self.result = result
  }

  @inlinable func resume() { continuation.resume(with: result) }
}

/// Elements produced for one consumer, in order, followed by an end (finish or failure).
@usableFromInline
struct Downstream<Element: Sendable> {
  @usableFromInline enum End {
    case finished
    case failed(any Error)
    /// The error has been delivered; from now on the sequence only finishes.
    case delivered
  }

  @usableFromInline var buffer = FIFOQueue<Element>()
  @usableFromInline var end: End?
  @usableFromInline var consumer: UnsafeContinuation<Element?, any Error>?

  @inlinable init() {}

  /// Whether the sequence has ended (finished, failed or cancelled) for producers.
  @inlinable var isEnded: Bool { end != nil }

  /// How many produced elements wait for the consumer.
  @inlinable var bufferedCount: Int { buffer.count }

  /// Hands `element` to a waiting consumer, or buffers it. Ignored once the sequence ended.
  @inlinable mutating func send(_ element: Element) -> Resumption<Element>? {
    guard end == nil else { return nil }
    if let consumer {
      self.consumer = nil
      return Resumption(continuation: consumer, result: .success(element))
    }
    buffer.append(element)
    return nil
  }

  /// Ends the sequence after the buffered elements: with `error`, or finished when nil.
  @inlinable mutating func finish(throwing error: (any Error)? = nil) -> Resumption<Element>? {
    guard end == nil else { return nil }
    end = error.map(End.failed) ?? .finished
    guard let consumer, bufferedCount == 0 else { return nil }
    self.consumer = nil
    return Resumption(continuation: consumer, result: takeEnd())
  }

  /// Ends the sequence at once, dropping buffered elements: the consumer was cancelled.
  @inlinable mutating func cancel() -> Resumption<Element>? {
    buffer.removeAll()
    end = .finished
    guard let consumer else { return nil }
    self.consumer = nil
    return Resumption(continuation: consumer, result: .success(nil))
  }

  /// The next element or end when one is ready, nil when the consumer must wait.
  @inlinable mutating func poll() -> Result<Element?, any Error>? {
    if let element = buffer.popFirst() { return .success(element) }
    if end != nil { return takeEnd() }
    return nil
  }

  /// Parks the consumer; returns a resumption at once when something was ready meanwhile.
  @inlinable mutating func wait(_ continuation: UnsafeContinuation<Element?, any Error>) -> Resumption<Element>? {
    precondition(consumer == nil, "Internal inconsistency: two consumers iterate one sequence")
    if let ready = poll() { return Resumption(continuation: continuation, result: ready) }
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
