// Operator fusion. An operator whose upstream can hand it elements synchronously takes them
// that way, on the producer's thread, with no task and no job (RxJava and Reactor call this
// fusion). A chain of pushable operators costs a few locked calls per element instead of a task
// switch per operator; a task is started only where something really waits. The same state
// machine decides in both modes, so pulling (`for await`) and pushing give the same elements.

/// An asynchronous sequence that can also push its elements to a receiver, on the thread that
/// produces them.
///
/// ```swift
/// let feed = AsyncFeed<String>()
/// let seen = Recorder<String>()                       // StreamsTesting
/// let subscription = feed.removeDuplicates().subscribe(PushReceiver(
///   element: { seen.append($0) }, end: { _ in seen.append("end") }))
/// feed.yield("tay"); feed.yield("tay"); feed.yield("taylor")   // seen.values == ["tay", "taylor"]
/// feed.finish()                                        // seen.values == ["tay", "taylor", "end"]
/// subscription.cancel()                                // nothing more would be delivered
/// ```
///
/// - **Element**: handed to the receiver's `element`, on the producing thread, before the
///   producing call returns when nothing else is being delivered; calls never overlap and
///   come in the order produced. An element produced while another is delivered (on another
///   thread, or by the receiver itself) is queued and delivered by the thread delivering.
/// - **Finish** and **failure**: `end` is called once, after the last element, with the error
///   or nil.
/// - **Cancellation**: ``PushSubscription/cancel()`` stops delivery and cancels what the
///   sequence runs (timers, children, the upstream); `end` is not called.
///
/// Subscribe at most once, and do not also iterate the same instance: a second consumer of one
/// instance gets ``SecondConsumerError`` (see there).
public protocol PushableAsyncSequence<Element>: AsyncSequence, Sendable where Element: Sendable {
  /// Starts pushing elements and the end to `receiver`; see ``PushableAsyncSequence``.
  func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription
}

/// Where a ``PushableAsyncSequence`` delivers.
public struct PushReceiver<Element: Sendable>: Sendable {
  /// Takes one element.
  public let element: @Sendable (Element) -> Void
  /// Takes the end: nil when the sequence finished, else its failure.
  public let end: @Sendable ((any Error)?) -> Void
  /// Whether a task pulls at the end of the chain, and how a base that cannot push is iterated.
  @usableFromInline let route: PullRoute

  /// A receiver of elements and of the end; see ``PushableAsyncSequence`` for when each is called.
  public init(element: @escaping @Sendable (Element) -> Void, end: @escaping @Sendable ((any Error)?) -> Void) {
    self.init(element: element, end: end, route: .pushed)
  }

  @inlinable init(
    element: @escaping @Sendable (Element) -> Void, end: @escaping @Sendable ((any Error)?) -> Void, route: PullRoute
  ) {
    self.element = element
    self.end = end
    self.route = route
  }
}

/// Stops a subscription to a ``PushableAsyncSequence``.
public struct PushSubscription: Sendable {
  @usableFromInline let stop: @Sendable () -> Void

  /// A subscription that calls `stop` when cancelled.
  public init(stop: @escaping @Sendable () -> Void) { self.stop = stop }

  /// Stops delivery and cancels what the sequence runs; the receiver hears nothing more. Calling
  /// it again does nothing more.
  @inlinable public func cancel() { stop() }
}
