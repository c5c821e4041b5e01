// Debounce's shared storage: takes the lock, asks the state machine, and performs the action
// (deliver to the consumer, schedule or cancel the timer) after releasing the lock.
//
// Two ways in, one state machine. Pulled, a pump task iterates the base. Pushed (the base is a
// PushableAsyncSequence and the consumer subscribed), the base calls `receive` on its own
// thread: a keystroke updates the pending element and deadline under the lock and wakes
// nothing. Either way the timer is a ClockWake: on a ManualClock a call at the deadline, with no
// task; on a real clock a sleeping task.
import Synchronization

/// The state debounce's input, timer and consumer share, behind one lock.
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

  /// One element of the base, from the pump or pushed by the base.
  @inlinable func receive(_ element: Element) {
    let now = clock.now
    let deadline = now.advanced(by: quietPeriod(element))
    perform(state.withLock { $0.element(element, deadline: deadline, now: now) })
  }

  /// The base ended: finished (nil) or failed.
  @inlinable func baseEnded(_ error: (any Error)?) {
    perform(state.withLock { machine in error.map { machine.baseFailed($0) } ?? machine.baseFinished() })
  }

  @inlinable func startPump() {
    let task = Task(inheritingExecutor: { [self] in
      do {
        for try await element in base { receive(element) }
        baseEnded(nil)
      } catch {
        baseEnded(error)
      }
    })
    state.withLock { $0.pumpStarted(task) }?.cancel()
  }

  @inlinable func startTimer(generation: UInt64, deadline: C.Instant) {
    let wake = ClockWake.schedule(on: clock, at: deadline) { [self] in timerFired(generation: generation) }
    state.withLock { $0.timerStarted(wake, generation: generation) }?.cancel()
  }

  @inlinable func timerFired(generation: UInt64) {
    let now = clock.now
    let (resumption, rearm) = state.withLock { $0.timerFired(generation: generation, now: now) }
    Streams.perform(resumption, on: state)
    // A newer element moved the deadline: wake again then rather than deliver now.
    if let rearm { startTimer(generation: generation, deadline: rearm) }
  }

  @inlinable func perform(_ action: Machine.Action) {
    action.cancelTimer?.cancel()
    action.cancelPump?.cancel()
    action.cancelUpstream?.cancel()
    if let start = action.startTimer { startTimer(generation: start.generation, deadline: start.deadline) }
    Streams.perform(action.resumption, on: state)
  }
}

extension DebounceStorage where Base: PushableAsyncSequence {
  /// Push mode: subscribes to the base and delivers to `receiver`.
  @inlinable func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription {
    // The storage is this subscription's own, made for it: nobody else consumes it.
    _ = state.withLock { $0.downstream.attach(receiver) }
    let upstream = base.subscribe(
      PushReceiver(
        element: { [self] element in receive(element) }, end: { [self] error in baseEnded(error) }))
    state.withLock { $0.upstreamStarted(upstream) }?.cancel()
    return PushSubscription { [self] in consumerCancelled() }
  }
}

extension AsyncDebounceSequence: PushableAsyncSequence where Base: PushableAsyncSequence {
  /// Debounces the base's pushed elements and pushes the settled ones to `receiver`, with no
  /// task (on a ``ManualClock``; a real clock's timer is a sleeping task). Same semantics as
  /// iterating; see ``AsyncDebounceSequence``.
  @inlinable public func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription {
    DebounceStorage(base: base, clock: clock, quietPeriod: quietPeriod).subscribe(receiver)
  }
}
