// switchMap's shared storage: takes the lock, asks the state machine, and performs the action
// (resume the consumer, start or cancel a task) after releasing the lock.
import Synchronization

/// The state switchMap's pump, children and consumer share, behind one lock.
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
  @usableFromInline let child: @Sendable (Input, SwitchMapEmitter<Output>) async -> Void
  @usableFromInline let state = Mutex(Machine())

  @inlinable init(base: Base, child: @escaping @Sendable (Input, SwitchMapEmitter<Output>) async -> Void) {
    self.base = base
    self.child = child
  }

  @inlinable func next() async throws -> Event? {
    try await nextElement(of: state, startPump: startPump, consumerCancelled: consumerCancelled)
  }

  @inlinable func consumerCancelled() {
    perform(state.withLock { $0.consumerCancelled() })
  }

  @inlinable func startPump() {
    let task = Task(inheritingExecutor: { [self] in
      do {
        for try await input in base {
          let (generation, action) = state.withLock { $0.element(input) }
          perform(action)
          if let generation { startChild(for: input, generation: generation) }
        }
        state.withLock { $0.baseFinished() }?.resume()
      } catch {
        perform(state.withLock { $0.baseFailed(error) })
      }
    })
    state.withLock { $0.pumpStarted(task) }?.cancel()
  }

  @inlinable func startChild(for input: Input, generation: UInt64) {
    let emitter = SwitchMapEmitter<Output> { [self] output in
      let (emitted, resumption) = state.withLock { $0.childEmitted(output, generation: generation) }
      resumption?.resume()
      return emitted
    }
    let task = Task(inheritingExecutor: { [self] in
      await child(input, emitter)
      state.withLock { $0.childReturned(generation: generation) }?.resume()
    })
    state.withLock { $0.childStarted(task, generation: generation) }?.cancel()
  }

  @inlinable func perform(_ action: Machine.Action) {
    action.cancelChild?.cancel()
    action.cancelPump?.cancel()
    action.resumption?.resume()
  }
}
