// The hand-off of inputs to the task that consumes them: PipelineInlet → each session's pipeline
// (its terms), and PipelineInlet → the pipeline's task (the sessions that start). It does what an
// unbounded AsyncStream did here, for a fraction of the cost:
// AsyncStream is generic code the standard library does not specialise, and profiling the
// replay showed a quarter of its time in AsyncStream's yield/next and their generic-metadata
// lookups. This one lives in Pipeline, so every use is specialised for its concrete element.
import Streams
import Synchronization

/// An unbounded FIFO with one consumer: any thread feeds it, one task iterates it.
///
/// - **Element**: delivered in the order fed; a waiting consumer is resumed at once.
/// - **Finish**: after ``finish()``, the consumer receives the buffered elements, then nil.
/// - **Cancellation**: when the consuming task is cancelled, buffered elements are dropped and
///   `next()` returns nil from then on, so reading stops; later feeds are ignored.
final class InputFeed<Element: Sendable>: AsyncSequence, Sendable {
  private struct State {
    var buffer = FIFOQueue<Element>()
    var finished = false
    var consumer: UnsafeContinuation<Element?, Never>?

    /// The next element, `.some(nil)` at the end, nil when the consumer must wait.
    mutating func poll() -> Element?? {
      if let element = buffer.popFirst() { return .some(element) }
      return finished ? .some(nil) : nil
    }
  }

  private let state = Mutex(State())

  init() {}

  /// Hands `element` to the consumer, or buffers it. Ignored after finish or cancellation.
  func yield(_ element: Element) {
    let consumer = state.withLock { state -> UnsafeContinuation<Element?, Never>? in
      guard !state.finished else { return nil }
      if let consumer = state.consumer {
        state.consumer = nil
        return consumer
      }
      state.buffer.append(element)
      return nil
    }
    consumer?.resume(returning: element)
  }

  /// Ends the sequence after the buffered elements.
  func finish() {
    let consumer = state.withLock { state -> UnsafeContinuation<Element?, Never>? in
      state.finished = true
      defer { state.consumer = nil }
      return state.consumer
    }
    consumer?.resume(returning: nil)
  }

  /// The next element, or nil when finished or when the consuming task was cancelled.
  func next() async -> Element? {
    if let ready = state.withLock({ $0.poll() }) { return ready }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
        let ready = state.withLock { state -> Element?? in
          if let ready = state.poll() { return ready }
          precondition(state.consumer == nil, "Internal inconsistency: two consumers iterate one InputFeed")
          state.consumer = continuation
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      let consumer = state.withLock { state -> UnsafeContinuation<Element?, Never>? in
        state.finished = true
        state.buffer.removeAll()
        defer { state.consumer = nil }
        return state.consumer
      }
      consumer?.resume(returning: nil)
    }
  }

  /// Creates the iterator; there must be one at a time.
  func makeAsyncIterator() -> Iterator { Iterator(feed: self) }

  /// Delivers the fed elements; see ``InputFeed``.
  struct Iterator: AsyncIteratorProtocol {
    let feed: InputFeed

    /// The next element, or nil at the end.
    mutating func next() async -> Element? { await feed.next() }
  }
}
