// Elements handed to one callee in order, one call at a time, by whichever thread finds nobody
// delivering them: how a locked state calls out (a sink, a callback, a write) without holding
// its lock while it does.

/// A first-in-first-out queue of elements to deliver, and whether a thread is delivering them.
///
/// It lives inside a lock-protected state. ``offer(_:)``, under the lock, queues an element or
/// hands it back to be delivered now when no thread is delivering; the thread it is handed back
/// to delivers with the lock released, then takes the next element with ``next()`` under the
/// lock, until that returns nil. Elements offered meanwhile, by other threads or by the callee
/// itself calling back in, are delivered by that same loop, in the order they were offered. So
/// the callee is never called under the lock, never by two threads at once, and may call back
/// into whatever owns the lock.
///
/// ```swift
/// var next = state.withLock { $0.deliveries.offer(event) }
/// while let event = next {
///   sink(event)  // the lock is released: the sink may call back in
///   next = state.withLock { $0.deliveries.next() }
/// }
/// ```
///
/// The thread that offers an element another thread is delivering returns before it is
/// delivered; a caller that must know it was delivered waits for ``isIdle`` (see the event
/// emitter's summary, which waits for every event before it to be written).
///
/// `@inlinable`, as FIFOQueue is: the event emitter offers and takes every event through it, and
/// from another module an unspecialised generic method looks its types up at run time.
@usableFromInline
package struct DeliveryQueue<Element> {
  @usableFromInline var queued = FIFOQueue<Element>()
  /// Whether a thread is delivering: set by ``offer(_:)`` when it hands an element back, cleared
  /// by ``next()`` when the queue is empty.
  @usableFromInline package internal(set) var isDelivering = false

  /// An empty queue that nobody delivers.
  @inlinable package init() {}

  /// Whether nothing is queued or being delivered.
  @inlinable package var isIdle: Bool { !isDelivering }

  /// `element`, to deliver now, when no thread is delivering (this caller then is, until
  /// ``next()`` returns nil); nil when it was queued behind a delivery in progress.
  @inlinable package mutating func offer(_ element: Element) -> Element? {
    if claim() { return element }
    queued.append(element)
    return nil
  }

  /// Whether this caller is to deliver now, as ``offer(_:)`` decides, for a caller that builds
  /// its element only when it must be queued: true makes it the delivering thread (until
  /// ``next()`` returns nil); after false it queues its element with ``enqueue(_:)``.
  @inlinable package mutating func claim() -> Bool {
    guard !isDelivering else { return false }
    isDelivering = true
    return true
  }

  /// Queues `element` behind the delivery in progress: after ``claim()`` returned false, or
  /// after an ``offer(_:)`` of this same step, to be delivered right after its element.
  @inlinable package mutating func enqueue(_ element: Element) {
    queued.append(element)
  }

  /// For the delivering thread: the next element to deliver, or nil when none is left, which
  /// ends its delivery.
  @inlinable package mutating func next() -> Element? {
    if let element = queued.popFirst() { return element }
    isDelivering = false
    return nil
  }
}
