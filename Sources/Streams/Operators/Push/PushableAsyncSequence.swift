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
