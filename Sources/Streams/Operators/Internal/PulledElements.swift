// The one way an operator is pulled. Every operator is written once, as a pushed stage; a task
// iterating it with `for await` gets its elements through this adapter, which subscribes the
// stage on the first `next()` and hands the pushed elements to the task. The operators have no
// pull path of their own, so pulled and pushed give the same elements by construction.
import Synchronization

/// The consumer side of a pulled operator: subscribes on the first `next()`, buffers what the
/// stage pushes, and paces the pumps of bases that cannot push (see `PullRoute`).
///
/// - Element: handed to the waiting task, or buffered until it asks.
/// - Finish and failure: after the buffered elements, nil or the error, once; nil after that.
/// - Cancellation: the consuming task's cancellation (or dropping the iterator) cancels the
///   subscription, and `next()` returns nil from then on.
/// - A second task calling `next()` while one waits gets ``SecondConsumerError`` at once.
@usableFromInline
final class PulledElements<Element: Sendable>: PullGate, PushInput, Sendable {
  @usableFromInline struct State: Sendable {
    @usableFromInline var buffer = PullBuffer<Element>()
    /// Whether the stage has been subscribed to (or no longer needs to be).
    @usableFromInline var started = false
    @usableFromInline var upstream = UpstreamLink.connecting
    /// Pumps in tasks of their own; each may run one element ahead of the consumer.
    @usableFromInline var pumps = 0
    @usableFromInline var pumpsWaitingForRoom: [UnsafeContinuation<Void, Never>] = []
    /// The pump the consumer's own task runs, when every stage between emits only when fed.
    @usableFromInline var driven: (any DrivenPump)?
    /// A task is inside the driven pump's step.
    @usableFromInline var driving = false

    @inlinable init() {}

    /// What `next()` does now.
    @inlinable mutating func nextStep() -> NextStep {
      if let ready = buffer.poll() { return .ready(ready, resumingPumps: takePumpsIfRoom()) }
      if !started {
        started = true
        return .connect
      }
      if let pump = driven {
        // One task drives the base at a time: a second consumer is told so at once.
        guard !driving else { return .ready(.failure(SecondConsumerError()), resumingPumps: []) }
        driving = true
        return .drive(pump)
      }
      return .wait
    }

    @inlinable mutating func takePumpsIfRoom() -> [UnsafeContinuation<Void, Never>] {
      guard !pumpsWaitingForRoom.isEmpty, buffer.isEnded || buffer.count < pumps else { return [] }
      defer { pumpsWaitingForRoom = [] }
      return pumpsWaitingForRoom
    }
  }

  @usableFromInline enum NextStep: Sendable {
    /// An element or the end is ready; these pumps may go on.
    case ready(Result<Element?, any Error>, resumingPumps: [UnsafeContinuation<Void, Never>])
    /// First call: subscribe to the stage.
    case connect
    /// Run the driven pump once in this task.
    case drive(any DrivenPump)
    /// Wait for the stage to push.
    case wait
  }

  @usableFromInline let subscribe: @Sendable (PushReceiver<Element>, PullRoute) -> PushSubscription
  @usableFromInline let state = Mutex(State())

  /// A consumer of what `subscribe` pushes; nothing is subscribed before the first `next()`.
  @inlinable init(subscribe: @escaping @Sendable (PushReceiver<Element>, PullRoute) -> PushSubscription) {
    self.subscribe = subscribe
  }

  /// The next element, nil at the end or once cancelled; throws the stage's failure once.
  @inlinable func next() async throws -> Element? {
    while true {
      switch state.withLock({ $0.nextStep() }) {
      case .ready(let result, let pumps):
        for pump in pumps { pump.resume() }
        return try result.get()
      case .connect:
        let subscription = subscribe(PushReceiver(self), .consumerDriven(self))
        state.withLock { $0.upstream.connected(subscription) }?.cancel()
      case .drive(let pump):
        _ = await pump.step()
        state.withLock { $0.driving = false }
      case .wait:
        return try await withTaskCancellationHandler {
          try await withUnsafeThrowingContinuation { continuation in
            state.withLock { $0.buffer.wait(continuation) }?.resume()
          }
        } onCancel: {
          cancel()
        }
      }
    }
  }

  /// The consumer is gone (its task cancelled, or the iterator dropped): stops the stage.
  @inlinable func cancel() {
    let (resumption, subscription, pumps) = state.withLock { state in
      state.started = true
      state.driven = nil
      let pumps = state.pumpsWaitingForRoom
      state.pumpsWaitingForRoom = []
      return (state.buffer.cancel(), state.upstream.cancel(), pumps)
    }
    subscription?.cancel()
    for pump in pumps { pump.resume() }
    resumption?.resume()
  }

  @inlinable package func receive(_ element: Element) {
    state.withLock { $0.buffer.send(element) }?.resume()
  }

  @inlinable package func receiveEnd(_ error: (any Error)?) {
    let (resumption, pumps) = state.withLock { state in
      state.upstream.ended()
      let resumption = state.buffer.finish(throwing: error)
      return (resumption, state.takePumpsIfRoom())
    }
    for pump in pumps { pump.resume() }
    resumption?.resume()
  }

  @inlinable func pumpStarted() {
    state.withLock { $0.pumps += 1 }
  }

  @inlinable func waitForRoom() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let hasRoom = state.withLock { state -> Bool in
        if state.buffer.isEnded || state.buffer.count < state.pumps { return true }
        state.pumpsWaitingForRoom.append(continuation)
        return false
      }
      if hasRoom { continuation.resume() }
    }
  }

  @inlinable func drive(_ pump: any DrivenPump) {
    state.withLock { $0.driven = pump }
  }
}

/// The iterator of a pulled operator: its elements, and the token that stops the operator when
/// the consumer drops the iterator (a `break` out of the loop).
@usableFromInline
struct PulledIterator<Element: Sendable>: Sendable {
  @usableFromInline let elements: PulledElements<Element>
  @usableFromInline let lifetime: IteratorLifetime

  @inlinable init(subscribe: @escaping @Sendable (PushReceiver<Element>, PullRoute) -> PushSubscription) {
    let elements = PulledElements(subscribe: subscribe)
    self.elements = elements
    lifetime = IteratorLifetime { elements.cancel() }
  }

  @inlinable func next() async throws -> Element? { try await elements.next() }
}
