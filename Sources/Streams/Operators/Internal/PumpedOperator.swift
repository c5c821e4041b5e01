// The consumer side shared by debounce and switchMap: each iterates its base in one task of its
// own (the pump), started on the first `next()`, and hands what it produces to one consumer
// through a `Downstream`. Only what the operators do with elements differs.
import Synchronization

/// A state with a consumer side: what was produced, and the consumer or receiver it goes to.
@usableFromInline
protocol DownstreamState {
  associatedtype Element: Sendable
  /// What was produced for the consumer, and the consumer waiting for it (or the receiver).
  var downstream: Downstream<Element> { get set }
}

/// An operator state with a pump task and a consumer side.
@usableFromInline
protocol PumpedOperatorState: DownstreamState {
  /// The task iterating the base, once started.
  var pump: Task<Void, Never>? { get set }
}

extension PumpedOperatorState {
  /// Whether the base's iteration has been started (or no longer needs to be).
  @inlinable var hasStarted: Bool { pump != nil || downstream.isEnded }

  /// Records the pump; returns it to be cancelled when the consumer left while it was started.
  @inlinable mutating func pumpStarted(_ task: Task<Void, Never>) -> Task<Void, Never>? {
    guard !downstream.isEnded else { return task }
    pump = task
    return nil
  }

  @inlinable mutating func poll() -> Result<Element?, any Error>? { downstream.poll() }

  @inlinable mutating func wait(_ continuation: UnsafeContinuation<Element?, any Error>) -> Resumption<Element>? {
    downstream.wait(continuation)
  }
}

/// Does what `resumption` asks for, outside the lock: resumes the consumer (pull), or delivers
/// the queue to the receiver until it is empty (push; see ``Downstream/nextDelivery()``). Each
/// delivery takes the lock only to take the next element, so the receiver may call back into
/// the operator: what it produces is queued and delivered by this same loop, in order.
@inlinable
func perform<State: DownstreamState>(_ resumption: Resumption<State.Element>?, on state: borrowing Mutex<State>) {
  switch resumption {
  case .resume(let continuation, let result):
    continuation.resume(with: result)
  case .deliver(let receiver, let element):
    receiver.element(element)
    // What the receiver (or another thread) produced meanwhile was queued behind it.
    fallthrough
  case .drain:
    while let delivery = state.withLock({ $0.downstream.nextDelivery() }) { delivery.deliver() }
  case nil:
    break
  }
}

/// The next element for the consumer of an operator whose state is `state`: at once when one is
/// ready, else after starting the pump (first call) and waiting. Cancellation of the consuming
/// task calls `consumerCancelled`, which must end the sequence and resume the waiting consumer.
@inlinable
func nextElement<State: PumpedOperatorState>(
  of state: borrowing Mutex<State>, startPump: () -> Void, consumerCancelled: @Sendable () -> Void
) async throws -> State.Element? {
  let (ready, mustStart) = state.withLock { machine in
    (machine.poll(), !machine.hasStarted)
  }
  if let ready { return try ready.get() }
  if mustStart { startPump() }
  return try await withTaskCancellationHandler {
    try await withUnsafeThrowingContinuation { continuation in
      perform(state.withLock { $0.wait(continuation) }, on: state)
    }
  } onCancel: {
    consumerCancelled()
  }
}
