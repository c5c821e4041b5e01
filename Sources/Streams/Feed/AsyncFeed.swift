// The hand-off at the head of a chain: any thread feeds it, and either one task iterates it or
// one receiver is pushed to (the fused path, see PushableAsyncSequence). It is a `Downstream`
// behind a lock, the same consumer side the operators use, so there is one single-consumer
// hand-off in the package. Cheaper than an unbounded AsyncStream: AsyncStream is generic code the
// standard library does not specialise, and a replay's profile once showed a quarter of its time
// in its yield/next and their generic-metadata lookups.
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
public final class AsyncFeed<Element: Sendable>: PushableAsyncSequence, Sendable {
  @usableFromInline struct State: DownstreamState {
    @usableFromInline var downstream = Downstream<Element>()
    @inlinable init() {}
  }

  @usableFromInline let state = Mutex(State())

  /// Creates an empty feed.
  @inlinable public init() {}

  /// Hands `element` to the consumer or receiver, or buffers it. Ignored after finish or
  /// cancellation.
  @inlinable public func yield(_ element: Element) {
    perform(state.withLock { $0.downstream.send(element) }, on: state)
  }

  /// Ends the sequence after the buffered elements.
  @inlinable public func finish() {
    perform(state.withLock { $0.downstream.finish() }, on: state)
  }

  /// Pushes every element, then the end, to `receiver`; see ``PushableAsyncSequence``.
  /// A second subscriber, or one while a task waits in `next()`, gets `end(SecondConsumerError())`
  /// at once and a subscription that does nothing; the first consumer is unaffected.
  @inlinable public func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription {
    let attached = state.withLock { state -> (Bool, Resumption<Element>?) in
      guard state.downstream.attach(receiver) else { return (false, nil) }
      // Elements fed before the subscription are delivered now, on this thread.
      let ready = state.downstream.bufferedCount > 0 || state.downstream.isEnded
      return (true, ready ? state.downstream.startDraining() : nil)
    }
    guard attached.0 else {
      receiver.end(SecondConsumerError())
      return PushSubscription {}
    }
    perform(attached.1, on: state)
    return PushSubscription { [self] in cancel() }
  }

  /// The next element, or nil when finished or when the consuming task was cancelled. Nil at
  /// once, too, for a second consumer: a task calling this while another waits in it, or while
  /// the feed has a subscriber (the first consumer keeps every element).
  @inlinable public func next() async -> Element? {
    if let ready = state.withLock({ $0.downstream.poll() }) { return (try? ready.get()) ?? nil }
    return await withTaskCancellationHandler {
      let element = try? await withUnsafeThrowingContinuation { continuation in
        perform(state.withLock { $0.downstream.wait(continuation) }, on: state)
      }
      return element ?? nil
    } onCancel: {
      cancel()
    }
  }

  @inlinable func cancel() {
    perform(state.withLock { $0.downstream.cancel() }, on: state)
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
