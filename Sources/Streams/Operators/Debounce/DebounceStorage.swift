// Debounce's shared storage: takes the lock, asks the state machine, and performs the action
// (resume the consumer, start or cancel a task) after releasing the lock.
import Synchronization

final class DebounceStorage<Base: AsyncSequence & Sendable, C: Clock>: Sendable
where Base.Element: Sendable, C.Duration == Duration {
  typealias Element = Base.Element
  private typealias Machine = DebounceStateMachine<Element, C.Instant>

  private let base: Base
  private let clock: C
  private let quietPeriod: @Sendable (Element) -> Duration
  private let state = Mutex(Machine())

  init(base: Base, clock: C, quietPeriod: @escaping @Sendable (Element) -> Duration) {
    self.base = base
    self.clock = clock
    self.quietPeriod = quietPeriod
  }

  func next() async throws -> Element? {
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
        for try await element in base {
          let now = clock.now
          let deadline = now.advanced(by: quietPeriod(element))
          perform(state.withLock { $0.element(element, deadline: deadline, now: now) })
        }
        perform(state.withLock { $0.baseFinished() })
      } catch {
        perform(state.withLock { $0.baseFailed(error) })
      }
    })
    state.withLock { $0.pumpStarted(task) }?.cancel()
  }

  private func startTimer(generation: UInt64, deadline: C.Instant) {
    let task = Task(inheritingExecutor: { [self] in
      var deadline = deadline
      while true {
        do {
          try await clock.sleep(until: deadline, tolerance: nil)
        } catch {
          return  // Cancelled: whoever cancelled it has taken its place.
        }
        let now = clock.now
        let (resumption, rearm) = state.withLock { $0.timerFired(generation: generation, now: now) }
        resumption?.resume()
        guard let rearm else { return }
        deadline = rearm
      }
    })
    state.withLock { $0.timerStarted(task, generation: generation) }?.cancel()
  }

  private func perform(_ action: Machine.Action) {
    action.cancelTimer?.cancel()
    action.cancelPump?.cancel()
    if let start = action.startTimer { startTimer(generation: start.generation, deadline: start.deadline) }
    action.resumption?.resume()
  }
}
