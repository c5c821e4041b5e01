// merge as a pushed stage: each base pushes (a pump iterates one that cannot, in a task of its
// own, paced by a pulling consumer), and what they push is delivered in the order pushed, one at
// a time. Takes the lock, asks the state machine, releases the lock, then acts.
import Synchronization

/// The state merge's bases and receiver share, behind one lock.
///
/// @inlinable throughout so that it is specialised for the bases of the module that uses it
/// (see PushOutput.swift).
@usableFromInline
final class MergeStorage<Element: Sendable>: PushCancellable, Sendable {
  @usableFromInline typealias Machine = MergeStateMachine<Element>

  @usableFromInline struct State: Sendable {
    @usableFromInline var machine: Machine
    @usableFromInline var output: PushOutput<PushReceiver<Element>>
    /// One per base, in the order given.
    @usableFromInline var upstreams: [UpstreamLink]

    @inlinable init(bases: Int, output: PushOutput<PushReceiver<Element>>) {
      machine = Machine(bases: bases)
      self.output = output
      upstreams = Array(repeating: .connecting, count: bases)
    }

    /// Every base's subscription still to cancel; the links are cancelled.
    @inlinable mutating func cancelUpstreams() -> [PushSubscription] {
      var subscriptions: [PushSubscription] = []
      for index in upstreams.indices {
        if let subscription = upstreams[index].cancel() { subscriptions.append(subscription) }
      }
      return subscriptions
    }
  }

  @usableFromInline let state: Mutex<State>

  @inlinable init(bases: Int, receiver: PushReceiver<Element>) {
    state = Mutex(State(bases: bases, output: PushOutput(receiver: receiver)))
  }

  /// Pushes what every one of `bases` pushes to `receiver`.
  @inlinable static func subscribe<Base: AsyncSequence & Sendable>(
    _ receiver: PushReceiver<Element>, route: PullRoute, to bases: [Base]
  ) -> PushSubscription where Base.Element == Element {
    let storage = MergeStorage(bases: bases.count, receiver: receiver)
    // Each base goes on by itself: a pulling consumer paces their pumps, one element each.
    for (index, base) in bases.enumerated() {
      let upstream = pushElements(
        of: base,
        to: PushReceiver(
          element: { [storage] element in storage.decide { $0.machine.element(element) } },
          end: { [storage] error in storage.baseEnded(index, error) }), route: route.throughTimedStage)
      storage.state.withLock { $0.upstreams[index].connected(upstream) }?.cancel()
    }
    storage.decide { $0.machine.basesConnected() }
    return PushSubscription(storage)
  }

  /// The receiver left: every base still running is cancelled.
  @inlinable package func cancel() {
    decide { state in
      state.output.cancel()
      return state.machine.cancelled()
    }
  }

  /// Base `index` ended: finished (nil) or failed.
  @inlinable func baseEnded(_ index: Int, _ error: (any Error)?) {
    decide { state in
      state.upstreams[index].ended()
      return error.map { state.machine.baseFailed($0) } ?? state.machine.baseFinished()
    }
  }

  /// Asks the machine under the lock, and queues what it emits there too, so that the order of
  /// the outputs is the order of the decisions; then acts outside the lock.
  @inlinable func decide(_ event: (inout State) -> Machine.Action) {
    let (delivery, cancelling) = state.withLock { state -> (PushDelivery<PushReceiver<Element>>?, [PushSubscription]) in
      switch event(&state) {
      case .none:
        return (nil, [])
      case .emit(let element):
        return (state.output.send(element), [])
      case .finish:
        return (state.output.finish(), [])
      case .cancelBasesAndFail(let error):
        return (state.output.finish(throwing: error), state.cancelUpstreams())
      case .cancelBases:
        return (nil, state.cancelUpstreams())
      }
    }
    for subscription in cancelling { subscription.cancel() }
    deliver(delivery, thenDrain: state) { $0.output.next() }
  }
}
