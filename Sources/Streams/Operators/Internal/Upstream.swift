// How a pushed stage gets its base's elements. A base that can push (an operator of this
// package, an AsyncFeed, a user's PushableAsyncSequence) is subscribed to. Any other sequence is
// iterated by a pump: the one place in the package where a base is iterated with `next()`. The
// pump runs in the consumer's own task when the consumer pulls and no stage between can emit by
// itself (removeDuplicates); else in a task of its own, which waits for the consumer's room.

/// A sequence that pushes to a receiver whatever its base: every operator of this package and
/// ``AsyncFeed``. The public face of the same thing is ``PushableAsyncSequence``, which an
/// operator adopts when its base does.
@usableFromInline
protocol PushedSequence<Element>: AsyncSequence, Sendable where Element: Sendable {
  /// Starts pushing to `receiver`: elements, then the end. `route` says whether a task pulls at
  /// the end of the chain. Cancel the returned subscription to stop it (the receiver then hears
  /// nothing more).
  func connect(_ receiver: PushReceiver<Element>, route: PullRoute) -> PushSubscription
}

/// Whether a task pulls at the end of a chain, and so how a base that cannot push is iterated.
@usableFromInline
enum PullRoute: Sendable {
  /// A receiver takes what comes: a pump pushes as fast as its base produces.
  case pushed
  /// A task pulls through `gate`, and a stage between can emit by itself (a timer, a child,
  /// another base): a pump iterates in a task of its own and waits for the consumer's room.
  case paced(any PullGate)
  /// A task pulls through `gate`, and every stage between emits only when fed: the consuming
  /// task iterates the base itself, with no task and no hop.
  case consumerDriven(any PullGate)

  /// The route for the base of a stage that can emit by itself (a timer, a child, a second base).
  @inlinable var throughTimedStage: PullRoute {
    if case .consumerDriven(let gate) = self { return .paced(gate) }
    return self
  }
}

/// The consuming end of a pulled chain, as its pumps see it.
@usableFromInline
protocol PullGate: AnyObject, Sendable {
  /// A pump starts: the consumer may hold one more element before pumps wait.
  func pumpStarted()
  /// Returns once the consumer has room for another element (or has gone).
  func waitForRoom() async
  /// The consumer's own task is to iterate the base through `pump`.
  func drive(_ pump: any DrivenPump)
}

/// A pump run by the consumer's task.
@usableFromInline
protocol DrivenPump: AnyObject, Sendable {
  /// Pulls one element of the base and pushes it; at the base's end pushes the end and
  /// returns false.
  func step() async -> Bool
}

/// Subscribes `receiver` to `base`: pushed when the base can push, else through a pump, run the
/// way `route` says.
@inlinable
func pushElements<Base: AsyncSequence & Sendable>(
  of base: Base, to receiver: PushReceiver<Base.Element>, route: PullRoute
) -> PushSubscription where Base.Element: Sendable {
  if let pushed = base as? any PushedSequence<Base.Element> { return pushed.connect(receiver, route: route) }
  if let pushable = base as? any PushableAsyncSequence<Base.Element> { return pushable.subscribe(receiver) }
  return BasePump.start(base, pushingTo: receiver, route: route)
}

/// Iterates a base that cannot push, pushing each element to a receiver.
///
/// `@unchecked Sendable`: `iterator` is used by one task at a time, the pump's own or the
/// consumer driving it (the consumer's adapter lets one task drive at a time).
@usableFromInline
final class BasePump<Base: AsyncSequence & Sendable>: DrivenPump, @unchecked Sendable where Base.Element: Sendable {
  @usableFromInline var iterator: Base.AsyncIterator
  @usableFromInline let receiver: PushReceiver<Base.Element>

  @inlinable init(iterator: Base.AsyncIterator, receiver: PushReceiver<Base.Element>) {
    self.iterator = iterator
    self.receiver = receiver
  }

  /// Starts iterating `base` for `receiver`, the way its route says.
  @inlinable static func start(_ base: Base, pushingTo receiver: PushReceiver<Base.Element>, route: PullRoute)
    -> PushSubscription
  {
    let pump = BasePump(iterator: base.makeAsyncIterator(), receiver: receiver)
    let task: Task<Void, Never>
    switch route {
    case .consumerDriven(let gate):
      // The consumer's task iterates: its cancellation is the base's, as for any iteration.
      gate.drive(pump)
      return PushSubscription {}
    case .paced(let gate):
      gate.pumpStarted()
      task = Task(inheritingExecutor: {
        while await pump.step() { await gate.waitForRoom() }
      })
    case .pushed:
      task = Task(inheritingExecutor: {
        while await pump.step() {}
      })
    }
    return PushSubscription { task.cancel() }
  }

  @inlinable func step() async -> Bool {
    do {
      guard let element = try await iterator.next() else {
        receiver.receiveEnd(nil)
        return false
      }
      receiver.receive(element)
      return true
    } catch {
      receiver.receiveEnd(error)
      return false
    }
  }
}

/// A stage's subscription to its base, whatever order connecting, ending and cancelling come in.
@usableFromInline
enum UpstreamLink: Sendable {
  /// The base is being subscribed to; it may push (and even end) before that call returns.
  case connecting
  /// Subscribed: cancelled when the stage is.
  case connected(PushSubscription)
  /// The base has ended: there is nothing left to cancel.
  case ended
  /// The stage was cancelled while connecting: the subscription is cancelled when it arrives.
  case cancelled

  /// The subscription arrived; returns it when it must be cancelled at once.
  @inlinable mutating func connected(_ subscription: PushSubscription) -> PushSubscription? {
    switch self {
    case .connecting:
      // The usual order: record it.
      self = .connected(subscription)
      return nil
    case .ended:
      // The base ended during the subscribe call: nothing to keep.
      return nil
    case .cancelled:
      // Cancelled while connecting: stop it now.
      return subscription
    case .connected:
      preconditionFailure("Internal inconsistency: an upstream link connected twice")
    }
  }

  /// The base pushed its end.
  @inlinable mutating func ended() {
    if case .cancelled = self { return }
    self = .ended
  }

  /// The stage is cancelled; returns the subscription to cancel, if any.
  @inlinable mutating func cancel() -> PushSubscription? {
    defer { self = .cancelled }
    if case .connected(let subscription) = self { return subscription }
    return nil
  }
}
