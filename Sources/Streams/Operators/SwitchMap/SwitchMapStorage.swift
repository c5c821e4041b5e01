// switchMap's shared storage: takes the lock, asks the state machine, and performs the action
// (deliver to the consumer, start or cancel a child) after releasing the lock.
//
// Two ways in, one state machine: a pump task iterating the base, or the base pushing elements
// (PushableAsyncSequence). A child starts synchronously, on the thread that delivered its
// element: a child that can answer at once (a cache hit) emits and returns `.finished` with no
// task; only one that must wait gets a task (`.task`).
import Synchronization

/// The state switchMap's input, children and consumer share, behind one lock.
///
/// @inlinable throughout so that it is specialised for the base and output of the module that
/// uses it (see Downstream.swift).
@usableFromInline
final class SwitchMapStorage<Base: AsyncSequence & Sendable, Output: Sendable>: Sendable
where Base.Element: Sendable {
  @usableFromInline typealias Input = Base.Element
  @usableFromInline typealias Event = SwitchMapEvent<Input, Output>
  @usableFromInline typealias Machine = SwitchMapStateMachine<Input, Output>

  @usableFromInline let base: Base
  @usableFromInline let child: @Sendable (Input, SwitchMapEmitter<Output>) -> SwitchMapChild
  @usableFromInline let state = Mutex(Machine())

  @inlinable init(base: Base, child: @escaping @Sendable (Input, SwitchMapEmitter<Output>) -> SwitchMapChild) {
    self.base = base
    self.child = child
  }

  @inlinable func next() async throws -> Event? {
    try await nextElement(of: state, startPump: startPump, consumerCancelled: consumerCancelled)
  }

  @inlinable func consumerCancelled() {
    perform(state.withLock { $0.consumerCancelled() })
  }

  /// One element of the base, from the pump or pushed by the base.
  @inlinable func receive(_ input: Input) {
    let (generation, action) = state.withLock { $0.element(input) }
    perform(action)
    if let generation { startChild(for: input, generation: generation) }
  }

  /// The base ended: finished (nil) or failed.
  @inlinable func baseEnded(_ error: (any Error)?) {
    if let error {
      perform(state.withLock { $0.baseFailed(error) })
    } else {
      Streams.perform(state.withLock { $0.baseFinished() }, on: state)
    }
  }

  @inlinable func startPump() {
    let task = Task(inheritingExecutor: { [self] in
      do {
        for try await input in base { receive(input) }
        baseEnded(nil)
      } catch {
        baseEnded(error)
      }
    })
    state.withLock { $0.pumpStarted(task) }?.cancel()
  }

  @inlinable func startChild(for input: Input, generation: UInt64) {
    let emitter = SwitchMapEmitter<Output>(
      deliver: { [self] output in
        let (emitted, resumption) = state.withLock { $0.childEmitted(output, generation: generation) }
        Streams.perform(resumption, on: state)
        return emitted
      },
      returned: { [self] in childReturned(generation: generation) })
    switch child(input, emitter).kind {
    case .finished:
      // Answered in its synchronous start: no task was needed.
      childReturned(generation: generation)
    case .task(let work):
      let task = Task(inheritingExecutor: { [self] in
        await work()
        childReturned(generation: generation)
      })
      state.withLock { $0.childStarted(.task(task), generation: generation) }?.cancel()
    case .pending(let cancel):
      // Goes on by callbacks of its own, and says when it has returned (it may have already:
      // then it is no longer the latest, and the cancel below finds nothing to stop).
      state.withLock { $0.childStarted(.pending(cancel), generation: generation) }?.cancel()
    }
  }

  @inlinable func childReturned(generation: UInt64) {
    Streams.perform(state.withLock { $0.childReturned(generation: generation) }, on: state)
  }

  @inlinable func perform(_ action: Machine.Action) {
    action.cancelChild?.cancel()
    action.cancelPump?.cancel()
    action.cancelUpstream?.cancel()
    Streams.perform(action.resumption, on: state)
  }
}

extension SwitchMapStorage where Base: PushableAsyncSequence {
  /// Push mode: subscribes to the base and delivers to `receiver`.
  @inlinable func subscribe(_ receiver: PushReceiver<Event>) -> PushSubscription {
    // The storage is this subscription's own, made for it: nobody else consumes it.
    _ = state.withLock { $0.downstream.attach(receiver) }
    let upstream = base.subscribe(
      PushReceiver(
        element: { [self] input in receive(input) }, end: { [self] error in baseEnded(error) }))
    state.withLock { $0.upstreamStarted(upstream) }?.cancel()
    return PushSubscription { [self] in consumerCancelled() }
  }
}
