// The hand-off at the head of a chain: any thread feeds it, and either one task iterates it or
// one receiver is pushed to (the fused path, see PushableAsyncSequence). Behind its lock are the
// same two consumer sides the operators use (PullBuffer for a task, PushOutput for a receiver),
// so there is one way to hand elements over in the package. Cheaper than an unbounded
// AsyncStream: AsyncStream is generic code the standard library does not specialise, and a
// replay's profile once showed a quarter of its time in its yield/next and their
// generic-metadata lookups.
import Synchronization

/// An unbounded first-in-first-out hand-off with one consumer: any thread feeds it; one task
/// iterates it, or one receiver subscribes to it.
///
/// ```swift
/// let feed = AsyncFeed<String>()
/// feed.yield("t"); feed.yield("ta")
/// feed.finish()
/// var texts: [String] = []
/// for await text in feed { texts.append(text) }   // texts == ["t", "ta"]
/// ```
///
/// - **Element**: delivered in the order fed. A waiting consumer is resumed at once; a receiver
///   gets it on the feeding thread before ``yield(_:)`` returns (unless another thread is
///   delivering, which then delivers it too, in order).
/// - **Finish**: after ``finish()``, the buffered elements, then the end (nil from `next()`, or
///   the receiver's `end(nil)`). Later feeds are ignored.
/// - **Failure**: none; a feed only finishes.
/// - **Cancellation**: when the consuming task is cancelled (or the subscription cancelled),
///   buffered elements are dropped, `next()` returns nil from then on, and later feeds are
///   ignored.
/// - **One consumer**: a second one, waiting while the first waits or iterating while a
///   receiver is subscribed, gets the end at once (a second receiver `end(SecondConsumerError())`);
///   nothing crashes, nothing hangs, and the first consumer keeps every element.
public final class AsyncFeed<Element: Sendable>: PushableAsyncSequence, PushedSequence, PushCancellable, Sendable {
  /// Who consumes the feed: a task pulling (or nobody yet), or a receiver. Two optionals, of which
  /// one is set, rather than an enum whose cases carry them: each side is changed in place through
  /// optional chaining, where taking it out of an enum case and putting it back copied and released
  /// its receiver and queue on every element.
  @usableFromInline struct State: Sendable {
    /// Until a receiver subscribes: the elements waiting for a task, and the task waiting.
    @usableFromInline var pulled: PullBuffer<Element>? = PullBuffer()
    /// Once a receiver has subscribed: what is delivered to it.
    @usableFromInline var pushed: PushOutput<PushReceiver<Element>>?

    @inlinable init() {}

    /// The next delivery to the receiver, if one subscribed.
    @inlinable mutating func nextDelivery() -> PushDelivery<PushReceiver<Element>>? { pushed?.next() }
  }

  @usableFromInline let state = Mutex(State())

  /// Creates an empty feed.
  @inlinable public init() {}

  /// Hands `element` to the consumer or receiver, or buffers it. Ignored after finish or
  /// cancellation.
  @inlinable public func yield(_ element: Element) {
    // A subscribed feed (each line of a replay comes this way) asks for the receiver alone: an
    // optional resumption beside it, nil on this path, was still destroyed through the element's
    // generic value witness on every element.
    let pushed = state.withLock { state -> (subscribed: Bool, receiver: PushReceiver<Element>?) in
      guard state.pushed != nil else { return (false, nil) }
      return (true, state.pushed?.claimDelivery(of: element))
    }
    guard pushed.subscribed else { return yieldUnsubscribed(element) }
    // The receiver takes the element straight from here, then whatever was queued meanwhile, in
    // order.
    guard let receiver = pushed.receiver else { return }
    receiver.receive(element)
    drainDeliveries(state) { $0.nextDelivery() }
  }

  /// ``yield(_:)`` when no receiver had subscribed: for the task pulling, unless a receiver
  /// subscribed meanwhile.
  @inlinable func yieldUnsubscribed(_ element: Element) {
    let (resumption, receiver) = state.withLock { state -> (Resumption<Element>?, PushReceiver<Element>?) in
      if state.pushed != nil { return (nil, state.pushed?.claimDelivery(of: element)) }
      return (state.pulled?.send(element), nil)
    }
    resumption?.resume()
    guard let receiver else { return }
    receiver.receive(element)
    drainDeliveries(state) { $0.nextDelivery() }
  }

  /// Ends the sequence after the buffered elements.
  @inlinable public func finish() {
    let (resumption, delivery) = state.withLock {
      state -> (Resumption<Element>?, PushDelivery<PushReceiver<Element>>?) in
      if state.pushed != nil { return (nil, state.pushed?.finish()) }
      return (state.pulled?.finish(), nil)
    }
    resumption?.resume()
    deliver(delivery, thenDrain: state) { $0.nextDelivery() }
  }

  /// Pushes every element, then the end, to `receiver`; see ``PushableAsyncSequence``.
  /// A second subscriber, or one while a task waits in `next()`, gets `end(SecondConsumerError())`
  /// at once and a subscription that does nothing; the first consumer is unaffected.
  @inlinable public func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription {
    connect(receiver, route: .pushed)
  }

  @inlinable func connect(_ receiver: PushReceiver<Element>, route: PullRoute) -> PushSubscription {
    let attached = state.withLock { state -> (Bool, PushDelivery<PushReceiver<Element>>?) in
      guard var pulled = state.pulled, pulled.consumer == nil else { return (false, nil) }
      // Elements fed before the subscription are delivered now, on this thread, in order.
      var output = PushOutput(receiver: receiver)
      while let element = pulled.queue.popFirst() { output.queue.append(element) }
      var first: PushDelivery<PushReceiver<Element>>?
      if pulled.isEnded { first = output.finish() }
      if first == nil, output.queue.count > 0 {
        output.delivering = true
        first = output.next()
      }
      state.pulled = nil
      state.pushed = output
      return (true, first)
    }
    guard attached.0 else {
      receiver.receiveEnd(SecondConsumerError())
      return PushSubscription {}
    }
    deliver(attached.1, thenDrain: state) { $0.nextDelivery() }
    return PushSubscription(self)
  }

  /// The next element, or nil when finished or when the consuming task was cancelled. Nil at
  /// once, too, for a second consumer: a task calling this while another waits in it, or while
  /// the feed has a subscriber (the first consumer keeps every element).
  @inlinable public func next() async -> Element? {
    // A subscribed feed's elements are the receiver's: nil.
    let ready = state.withLock { state -> Result<Element?, any Error>? in
      guard state.pulled != nil else { return .success(nil) }
      return state.pulled?.poll()
    }
    if let ready { return (try? ready.get()) ?? nil }
    return await withTaskCancellationHandler {
      let element = try? await withUnsafeThrowingContinuation { continuation in
        state.withLock { state -> Resumption<Element>? in
          guard state.pulled != nil else { return Resumption(continuation, .success(nil)) }
          return state.pulled?.wait(continuation)
        }?.resume()
      }
      return element ?? nil
    } onCancel: {
      cancel()
    }
  }

  @inlinable package func cancel() {
    state.withLock { state -> Resumption<Element>? in
      state.pushed?.cancel()
      return state.pulled?.cancel()
    }?.resume()
  }

  /// Creates the iterator. One consumer at a time: see ``next()`` for what a second one gets.
  @inlinable public func makeAsyncIterator() -> Iterator { Iterator(feed: self) }

  /// Delivers the fed elements; see ``AsyncFeed``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let feed: AsyncFeed

    @inlinable init(feed: AsyncFeed) { self.feed = feed }

    /// The next element, or nil at the end.
    @inlinable public mutating func next() async -> Element? { await feed.next() }
  }
}
