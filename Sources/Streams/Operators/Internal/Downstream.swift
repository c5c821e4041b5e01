// The consumer side shared by the operators that produce elements from tasks of their own
// (debounce, switchMap, merge): a FIFO of produced elements, the end of the sequence, and the
// one consumer waiting in `next()`. It lives inside each operator's locked state, so producing an
// element and deciding whether it may be produced happen atomically; its methods return the
// continuation to resume, which the caller resumes after releasing the lock.
//
// Everything here is @inlinable / @usableFromInline: the operators are generic, and code of
// another module (Pipeline) that uses them gets them specialised only if their bodies are
// visible to it. Unspecialised, profiling found a third of their time in generic-metadata lookups.

/// What to do for the consumer once the lock is released: resume a suspended consumer, or (in
/// push mode) deliver what was produced by draining the queue (see ``drainDownstream(of:)``).
@usableFromInline
enum Resumption<Element>: Sendable where Element: Sendable {
  case resume(UnsafeContinuation<Element?, any Error>, with: Result<Element?, any Error>)
  /// Push mode: this thread delivers `element` now (nothing was queued, nobody else delivers),
  /// then whatever is queued meanwhile. The usual case: no queue is ever allocated.
  case deliver(PushReceiver<Element>, Element)
  /// Push mode: this thread must deliver the queue, since nobody else is delivering it.
  case drain

  @inlinable init(continuation: UnsafeContinuation<Element?, any Error>, result: Result<Element?, any Error>) {
    self = .resume(continuation, with: result)
  }

  /// Resumes the consumer. For operators that are only ever pulled (merge), which never attach
  /// a receiver and so never get `.drain`; the pushed ones use ``perform(_:on:)``.
  @inlinable func resume() {
    if case .resume(let continuation, let result) = self { continuation.resume(with: result) }
  }
}

/// One delivery of push mode, made outside the lock.
@usableFromInline
struct PushDelivery<Element: Sendable> {
  @usableFromInline let receiver: PushReceiver<Element>
  /// An element, or nil for the end (with `error` if it failed).
  @usableFromInline let element: Element?
  @usableFromInline let error: (any Error)?

  @inlinable init(receiver: PushReceiver<Element>, element: Element?, error: (any Error)?) {
    self.receiver = receiver
    self.element = element
    self.error = error
  }

  @inlinable func deliver() {
    if let element { receiver.element(element) } else { receiver.end(error) }
  }
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
  /// Push mode: the subscriber, which takes the place of a consumer in `next()`.
  @usableFromInline var receiver: PushReceiver<Element>?
  /// Push mode: a thread is delivering the queue; whoever produces meanwhile only queues.
  @usableFromInline var draining = false

  @inlinable init() {}

  /// Whether the sequence has ended (finished, failed or cancelled) for producers.
  @inlinable var isEnded: Bool { end != nil }

  /// How many produced elements wait for the consumer.
  @inlinable var bufferedCount: Int { buffer.count }

  /// Hands `element` to a waiting consumer, or buffers it. Ignored once the sequence ended.
  @inlinable mutating func send(_ element: Element) -> Resumption<Element>? {
    guard end == nil else { return nil }
    if let receiver {
      if !draining, buffer.count == 0 {
        draining = true
        return .deliver(receiver, element)
      }
      buffer.append(element)
      return startDraining()
    }
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
    if receiver != nil { return startDraining() }
    guard let consumer, bufferedCount == 0 else { return nil }
    self.consumer = nil
    return Resumption(continuation: consumer, result: takeEnd())
  }

  /// Ends the sequence at once, dropping buffered elements: the consumer was cancelled.
  @inlinable mutating func cancel() -> Resumption<Element>? {
    buffer.removeAll()
    end = .finished
    receiver = nil
    guard let consumer else { return nil }
    self.consumer = nil
    return Resumption(continuation: consumer, result: .success(nil))
  }

  /// The next element or end when one is ready, nil when the consumer must wait. A consumer
  /// of a subscribed sequence gets ``SecondConsumerError``: the queue is the receiver's.
  @inlinable mutating func poll() -> Result<Element?, any Error>? {
    if receiver != nil { return .failure(SecondConsumerError()) }
    if let element = buffer.popFirst() { return .success(element) }
    if end != nil { return takeEnd() }
    return nil
  }

  /// Parks the consumer; returns a resumption at once when something was ready meanwhile, or
  /// when this is a second consumer (``SecondConsumerError``).
  @inlinable mutating func wait(_ continuation: UnsafeContinuation<Element?, any Error>) -> Resumption<Element>? {
    // A second consumer would take the first one's place (and its elements), and one iterating
    // a subscribed sequence would wait for elements that all go to the receiver: either is told
    // at once, and the first consumer goes on as if nothing happened.
    guard consumer == nil, receiver == nil else {
      return Resumption(continuation: continuation, result: .failure(SecondConsumerError()))
    }
    if let ready = poll() { return Resumption(continuation: continuation, result: ready) }
    consumer = continuation
    return nil
  }

  /// Push mode: `receiver` takes the place of the consumer from now on; false, changing
  /// nothing, when the sequence already has a consumer or a receiver (the caller tells the new
  /// receiver with ``SecondConsumerError``).
  @inlinable mutating func attach(_ receiver: PushReceiver<Element>) -> Bool {
    guard consumer == nil, self.receiver == nil else { return false }
    self.receiver = receiver
    return true
  }

  /// Push mode: `.drain` when this caller becomes the one delivering the queue.
  @inlinable mutating func startDraining() -> Resumption<Element>? {
    guard !draining else { return nil }
    draining = true
    return .drain
  }

  /// Push mode: the next delivery of the thread draining, or nil (and draining stops) when the
  /// queue is empty. The end is delivered once, after the last element.
  @inlinable mutating func nextDelivery() -> PushDelivery<Element>? {
    guard let receiver else {
      draining = false
      return nil
    }
    if let element = buffer.popFirst() { return PushDelivery(receiver: receiver, element: element, error: nil) }
    guard end != nil else {
      draining = false
      return nil
    }
    self.receiver = nil
    draining = false
    let error: (any Error)? = if case .failure(let failure) = takeEnd() { failure } else { nil }
    return PushDelivery(receiver: receiver, element: nil, error: error)
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
