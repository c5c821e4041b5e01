// switchMap as a pushed stage: takes the lock, asks the state machine, releases the lock, then
// acts (deliver, start or cancel a child). A child starts synchronously, on the thread that
// delivered its element: a child that can answer at once (a cache hit) emits and returns
// `.finished` with no task; only one that must wait gets a task (`.task`), or goes on by
// callbacks of its own (`.pending`).
import Synchronization

/// The state switchMap's input, children and receiver share, behind one lock.
///
/// @inlinable throughout so that it is specialised for the input and output of the module that
/// uses it (see PushOutput.swift). Generic over its receiver, as DebounceStorage is.
@usableFromInline
package final class SwitchMapStorage<Input: Sendable, Output: Sendable, Receiver: PushDownstream>: PushInput,
  PushCancellable, Sendable
where Receiver.Element == SwitchMapEvent<Input, Output> {
  @usableFromInline typealias Event = SwitchMapEvent<Input, Output>
  @usableFromInline typealias Machine = SwitchMapStateMachine<Input, Output>
  @usableFromInline package typealias Start = @Sendable (Input, SwitchMapEmitter<Output>) -> SwitchMapChild

  @usableFromInline struct State: Sendable {
    @usableFromInline var machine = Machine()
    @usableFromInline var output: PushOutput<Receiver>
    @usableFromInline var upstream = UpstreamLink.connecting

    @inlinable init(output: PushOutput<Receiver>) { self.output = output }
  }

  @usableFromInline let child: Start
  @usableFromInline let state: Mutex<State>

  /// A stage that starts `child` for each element it is handed, cancelling the previous one, and
  /// hands the events to `receiver`.
  @inlinable package init(child: @escaping Start, receiver: Receiver) {
    self.child = child
    state = Mutex(State(output: PushOutput(receiver: receiver)))
  }

  /// Runs a child per element `base` pushes and pushes the events to `receiver`.
  @inlinable static func subscribe<Base: AsyncSequence & Sendable>(
    _ receiver: Receiver, route: PullRoute, to base: Base, child: @escaping Start
  ) -> PushSubscription where Base.Element == Input {
    let storage = SwitchMapStorage(child: child, receiver: receiver)
    storage.follow(pushElements(of: base, to: PushReceiver(storage), route: route.throughTimedStage))
    return PushSubscription(storage)
  }

  /// In a chain composed of concrete stages, the stage before this one: cancelled with this one,
  /// as a subscribed base is.
  @inlinable package func follow(_ upstream: PushSubscription) {
    state.withLock { $0.upstream.connected(upstream) }?.cancel()
  }

  /// One element of the base.
  @inlinable package func receive(_ input: Input) {
    decide { $0.machine.element(input) }
  }

  /// The base ended: finished (nil) or failed.
  @inlinable package func receiveEnd(_ error: (any Error)?) {
    decide { state in
      state.upstream.ended()
      return error.map { state.machine.baseFailed($0) } ?? state.machine.baseFinished()
    }
  }

  /// The receiver left: the running child and the base's subscription are cancelled.
  @inlinable package func cancel() {
    let (action, upstream) = state.withLock { state in
      state.output.cancel()
      return (state.machine.cancelled(), state.upstream.cancel())
    }
    upstream?.cancel()
    perform(action, delivering: nil)
  }

  /// Asks the machine under the lock, and queues what it emits there too, so that the order of
  /// the events is the order of the decisions; then acts outside the lock. Returns whether the
  /// action was to emit an output.
  @discardableResult
  @inlinable func decide(_ event: (inout State) -> Machine.Action) -> Bool {
    let (action, delivery, emitted) = state.withLock { state -> (Machine.Action, PushDelivery<Receiver>?, Bool) in
      // Taken apart (consumed) and put together again: a payload bound from the action while it
      // was borrowed was copied with the whole action, through the generic enum's value witness.
      let action = event(&state)
      switch consume action {
      case .emitStartedAndStartChild(let input, let generation):
        let delivery = state.output.send(.started(input))
        return (.emitStartedAndStartChild(input, generation: generation), delivery, false)
      case .cancelChildEmitAndStartChild(let handle, let cancelled, let input, let generation):
        // At most one of the two is to be delivered now: the second waits behind the first.
        let first = state.output.send(.cancelled(cancelled, by: input))
        let second = state.output.send(.started(input))
        let performed = Machine.Action.cancelChildEmitAndStartChild(
          handle, cancelled: cancelled, input, generation: generation)
        return (performed, first ?? second, false)
      case .emitOutput(let output):
        return (.none, state.output.send(.output(output)), true)
      case .finish:
        return (.none, state.output.finish(), false)
      case .cancelChildAndFail(let handle, let error):
        return (.cancelChild(handle), state.output.finish(throwing: error), false)
      case let other:
        return (other, nil, false)
      }
    }
    perform(action, delivering: delivery)
    return emitted
  }

  /// Does what the machine decided, outside the lock: stops the superseded child, delivers the
  /// events, then starts the new child, so that its outputs come after its `.started`.
  @inlinable func perform(_ action: consuming Machine.Action, delivering delivery: consuming PushDelivery<Receiver>?) {
    // Consumed, as in DebounceStorage: borrowed, both were destroyed afterwards through their
    // generic types' value witnesses.
    switch consume action {
    case .cancelChild(let handle), .cancelChildAndFail(let handle, _):
      handle?.cancel()
      deliver(delivery, thenDrain: state) { $0.output.next() }
    case .emitStartedAndStartChild(let input, let generation):
      deliver(delivery, thenDrain: state) { $0.output.next() }
      startChild(for: input, generation: generation)
    case .cancelChildEmitAndStartChild(let handle, _, let input, let generation):
      handle?.cancel()
      deliver(delivery, thenDrain: state) { $0.output.next() }
      startChild(for: input, generation: generation)
    case .none, .emitOutput, .finish:
      deliver(delivery, thenDrain: state) { $0.output.next() }
    }
  }

  @inlinable func startChild(for input: Input, generation: UInt64) {
    let emitter = SwitchMapEmitter<Output>(
      deliver: { [self] output in
        decide { $0.machine.childEmitted(output, generation: generation) }
      },
      returned: { [self] in decide { $0.machine.childReturned(generation: generation) } })
    switch child(input, emitter).kind {
    case .finished:
      // Answered in its synchronous start: no task was needed.
      decide { $0.machine.childReturned(generation: generation) }
    case .task(let work):
      let task = Task(inheritingExecutor: { [self] in
        await work()
        decide { $0.machine.childReturned(generation: generation) }
      })
      decide { $0.machine.childStarted(.task(task), generation: generation) }
    case .pending(let cancel):
      // Goes on by callbacks of its own, and says when it has returned (it may have already).
      decide { $0.machine.childStarted(.pending(cancel), generation: generation) }
    }
  }
}
