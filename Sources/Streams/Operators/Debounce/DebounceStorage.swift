// Debounce's shared storage: takes the lock, asks the state machine, and performs the action
// (resume the consumer, start or cancel a task) after releasing the lock.
import Synchronization

/// The state debounce's pump, timer and consumer share, behind one lock.
///
/// @inlinable throughout so that it is specialised for the base and clock of the module that
/// uses it (see Downstream.swift).
@usableFromInline
final class DebounceStorage<Base: AsyncSequence & Sendable, C: Clock>: Sendable
where Base.Element: Sendable, C.Duration == Duration {
  @usableFromInline typealias Element = Base.Element
  @usableFromInline typealias Machine = DebounceStateMachine<Element, C.Instant>

  @usableFromInline let base: Base
  @usableFromInline let clock: C
  @usableFromInline let quietPeriod: @Sendable (Element) -> Duration
  @usableFromInline let state = Mutex(Machine())

  @inlinable init(base: Base, clock: C, quietPeriod: @escaping @Sendable (Element) -> Duration) {
    self.base = base
    self.clock = clock
    self.quietPeriod = quietPeriod
  }

  @inlinable func next() async throws -> Element? {
    try await nextElement(of: state, startPump: startPump, consumerCancelled: consumerCancelled)
  }

  @inlinable func consumerCancelled() {
    perform(state.withLock { $0.consumerCancelled() })
  }

  @inlinable func startPump() {
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

  @inlinable func startTimer(generation: UInt64, deadline: C.Instant) {
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

  @inlinable func perform(_ action: Machine.Action) {
    action.cancelTimer?.cancel()
    action.cancelPump?.cancel()
    if let start = action.startTimer { startTimer(generation: start.generation, deadline: start.deadline) }
    action.resumption?.resume()
  }
}
