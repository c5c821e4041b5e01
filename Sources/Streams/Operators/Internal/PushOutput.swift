// The delivering side of every pushed stage: what a stage produced, handed to its one receiver
// in the order produced, one call at a time, outside the stage's lock. It lives inside the
// stage's locked state, so deciding to produce an element and queueing it are one step; the
// thread that finds nobody delivering becomes the deliverer and drains the queue.
//
// Everything here is @inlinable / @usableFromInline: the operators are generic, and code of
// another module (Pipeline) that uses them gets them specialised only if their bodies are
// visible to it. Unspecialised, profiling found a third of their time in generic-metadata lookups.
import Synchronization

/// One call to a receiver, made outside the lock.
@usableFromInline
enum PushDelivery<Receiver: PushDownstream>: Sendable {
  /// An element for the receiver.
  case element(Receiver, Receiver.Element)
  /// The end: nil when the sequence finished, else its failure.
  case end(Receiver, (any Error)?)

  /// Consumed: the receiver and the element are handed over, not copied and released.
  @inlinable consuming func deliver() {
    switch consume self {
    case .element(let receiver, let element): receiver.receive(element)
    case .end(let receiver, let error): receiver.receiveEnd(error)
    }
  }
}

/// Elements produced for one receiver, then its end; delivered in order, never two at once.
/// Generic over the receiver's type, so that a chain composed of concrete stages calls the next
/// stage directly (see PushDownstream).
@usableFromInline
struct PushOutput<Receiver: PushDownstream>: Sendable {
  @usableFromInline typealias Element = Receiver.Element

  @usableFromInline enum End: Sendable {
    case finished
    case failed(any Error)
  }

  /// Who receives; nil once the end has been handed over or the subscription was cancelled.
  @usableFromInline var receiver: Receiver?
  /// Produced while another call was delivering: its deliverer hands them over in turn.
  @usableFromInline var queue = FIFOQueue<Element>()
  /// The end, to deliver after the queue.
  @usableFromInline var end: End?
  /// A thread is delivering; whoever produces meanwhile only queues.
  @usableFromInline var delivering = false

  @inlinable init(receiver: Receiver) { self.receiver = receiver }

  /// Whether nothing more will be delivered (ended or cancelled).
  @inlinable var isClosed: Bool { receiver == nil || end != nil }

  /// Queues `element`; returns it to deliver now when nobody is delivering (the caller then
  /// drains with ``next()``). Ignored once ended or cancelled.
  @inlinable mutating func send(_ element: consuming Element) -> PushDelivery<Receiver>? {
    guard let receiver, end == nil else { return nil }
    if !delivering, queue.count == 0 {
      delivering = true
      return .element(receiver, element)
    }
    queue.append(element)
    return nil
  }

  /// ``send(_:)`` for a caller that keeps `element` until it is delivered: returns the receiver
  /// to hand it to now when nobody is delivering (the caller then drains with ``next()``), or
  /// queues it. The element is not copied into a delivery and out again.
  @inlinable mutating func claimDelivery(of element: Element) -> Receiver? {
    guard let receiver, end == nil else { return nil }
    if !delivering, queue.count == 0 {
      delivering = true
      return receiver
    }
    queue.append(element)
    return nil
  }

  /// Ends the output after what is queued: with `error`, or finished when nil. Returns the end
  /// to deliver now when nobody is delivering and nothing is queued.
  @inlinable mutating func finish(throwing error: (any Error)? = nil) -> PushDelivery<Receiver>? {
    guard let receiver, end == nil else { return nil }
    if !delivering, queue.count == 0 {
      self.receiver = nil
      return .end(receiver, error)
    }
    end = error.map(End.failed) ?? .finished
    return nil
  }

  /// The next delivery for the thread delivering, or nil, which ends its turn.
  @inlinable mutating func next() -> PushDelivery<Receiver>? {
    guard let receiver else {
      delivering = false
      return nil
    }
    if let element = queue.popFirst() { return .element(receiver, element) }
    // A stage queues rarely (a receiver re-entering it, two threads producing at once): its
    // buffer goes rather than stay allocated in each of many idle stages.
    queue.freeIfEmpty()
    guard let end else {
      delivering = false
      return nil
    }
    self.receiver = nil
    self.end = nil
    delivering = false
    switch end {
    case .finished: return .end(receiver, nil)
    case .failed(let error): return .end(receiver, error)
    }
  }

  /// The subscription was cancelled: nothing more is delivered, the queue is dropped.
  @inlinable mutating func cancel() {
    receiver = nil
    end = nil
    queue.removeAll()
  }
}

/// Delivers `first`, then whatever `next` takes from the locked state, until it returns nil.
/// The lock is held only to take each delivery, so a receiver may call back into the stage:
/// what it produces is queued, and delivered by this same loop, in order.
@inlinable
func deliver<State, Receiver: PushDownstream>(
  _ first: consuming PushDelivery<Receiver>?, thenDrain state: borrowing Mutex<State>,
  _ next: (inout State) -> PushDelivery<Receiver>?
) {
  // Consumed, here and below: a delivery borrowed was copied to be delivered and the original
  // destroyed after, both through the generic enum's value witnesses (its metadata looked up).
  switch consume first {
  case .some(let delivery): delivery.deliver()
  case .none: return
  }
  drainDeliveries(state, next)
}

/// For the thread that delivered last: delivers whatever `next` takes from the locked state, until
/// it returns nil, which ends that thread's turn. The lock is held only to take each delivery.
@inlinable
func drainDeliveries<State, Receiver: PushDownstream>(
  _ state: borrowing Mutex<State>, _ next: (inout State) -> PushDelivery<Receiver>?
) {
  while true {
    let delivery = state.withLock { next(&$0) }
    switch consume delivery {
    case .some(let delivery): delivery.deliver()
    case .none: return
    }
  }
}
