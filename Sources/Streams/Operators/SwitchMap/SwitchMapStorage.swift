// switchMap's shared storage: takes the lock, asks the state machine, and performs the action
// (resume the consumer, start or cancel a task) after releasing the lock.
import Synchronization

final class SwitchMapStorage<Base: AsyncSequence & Sendable, Output: Sendable>: Sendable
where Base.Element: Sendable {
  typealias Input = Base.Element
  typealias Event = SwitchMapEvent<Input, Output>
  private typealias Machine = SwitchMapStateMachine<Input, Output>

  private let base: Base
  private let child: @Sendable (Input, SwitchMapEmitter<Output>) async -> Void
  private let state = Mutex(Machine())

  init(base: Base, child: @escaping @Sendable (Input, SwitchMapEmitter<Output>) async -> Void) {
    self.base = base
    self.child = child
  }

  func next() async throws -> Event? {
    let (ready, mustStart) = state.withLock { machine in
      (machine.poll(), !machine.hasStarted)
    }
    if let ready { return try ready.get() }
    if mustStart { startPump() }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        state.withLock { $0.wait(continuation) }?.resume()
      }
    } onCancel: {
      consumerCancelled()
    }
  }

  func consumerCancelled() {
    perform(state.withLock { $0.consumerCancelled() })
  }

  private func startPump() {
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

  private func startChild(for input: Input, generation: UInt64) {
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

  private func perform(_ action: Machine.Action) {
    action.cancelChild?.cancel()
    action.cancelPump?.cancel()
    action.resumption?.resume()
  }
}
