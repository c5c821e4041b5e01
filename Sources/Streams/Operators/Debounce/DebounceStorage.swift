// Debounce as a pushed stage: takes the lock, asks the state machine, releases the lock, then
// acts (deliver, schedule or cancel the timer). Its base pushes each element on the producer's
// thread (a pump does it for a base that cannot push): a keystroke updates the pending element
// and deadline under the lock and wakes nothing. The timer is a ClockWake: on a ManualClock a
// call at the deadline, with no task; on a live clock an entry in the clock's one timer.
import Synchronization

/// The state debounce's input, timer and receiver share, behind one lock.
///
/// @inlinable throughout so that it is specialised for the element and clock of the module that
/// uses it (see PushOutput.swift). Generic over its receiver: the sequence's subscribers get a
/// ``PushReceiver``; a chain composed of concrete stages (the pipeline's sessions) gets the next
/// stage itself, called directly.
@usableFromInline
package final class DebounceStorage<Element: Sendable, C: Clock, Receiver: PushDownstream>: PushInput,
  PushCancellable, Sendable
where C.Duration == Duration, Receiver.Element == Element {
  @usableFromInline typealias Machine = DebounceStateMachine<Element, C.Instant>

  @usableFromInline struct State: Sendable {
    @usableFromInline var machine = Machine()
    @usableFromInline var output: PushOutput<Receiver>
    @usableFromInline var upstream = UpstreamLink.connecting

    @inlinable init(output: PushOutput<Receiver>) { self.output = output }
  }

  @usableFromInline let clock: C
  @usableFromInline let quietPeriod: @Sendable (Element) -> Duration
  @usableFromInline let state: Mutex<State>

  /// A stage that debounces what it is handed with ``receive(_:)`` and hands the settled elements
  /// to `receiver`.
  @inlinable package init(clock: C, quietPeriod: @escaping @Sendable (Element) -> Duration, receiver: Receiver) {
    self.clock = clock
    self.quietPeriod = quietPeriod
    state = Mutex(State(output: PushOutput(receiver: receiver)))
  }

  /// Debounces what `base` pushes and pushes the settled elements to `receiver`.
  @inlinable static func subscribe<Base: AsyncSequence & Sendable>(
    _ receiver: Receiver, route: PullRoute, to base: Base, clock: C,
    quietPeriod: @escaping @Sendable (Element) -> Duration
  ) -> PushSubscription where Base.Element == Element {
    let storage = DebounceStorage(clock: clock, quietPeriod: quietPeriod, receiver: receiver)
    storage.follow(pushElements(of: base, to: PushReceiver(storage), route: route.throughTimedStage))
    return PushSubscription(storage)
  }

  /// One element of the base.
  @inlinable package func receive(_ element: Element) {
    receive(element, at: clock.now)
  }

  /// One element of the base that arrived at `now`, read from this stage's clock by a caller
  /// that had read it already (the pipeline's inlet does, for every keystroke): a manual clock's
  /// reading is a locked step.
  @inlinable package func receive(_ element: Element, at now: C.Instant) {
    let deadline = now.advanced(by: quietPeriod(element))
    decide { $0.machine.element(element, deadline: deadline, now: now) }
  }

  /// The base ended: finished (nil) or failed.
  @inlinable package func receiveEnd(_ error: (any Error)?) {
    decide { state in
      state.upstream.ended()
      return error.map { state.machine.baseFailed($0) } ?? state.machine.baseFinished()
    }
  }

  /// The receiver left: the timer and the base's subscription are cancelled.
  @inlinable package func cancel() {
    let (action, upstream) = state.withLock { state in
      state.output.cancel()
      return (state.machine.cancelled(), state.upstream.cancel())
    }
    upstream?.cancel()
    perform(action, delivering: nil)
  }

  /// In a chain composed of concrete stages, the stage before this one: cancelled with this one,
  /// as a subscribed base is.
  @inlinable package func follow(_ upstream: PushSubscription) {
    state.withLock { $0.upstream.connected(upstream) }?.cancel()
  }

  @inlinable func timerFired(generation: UInt64) {
    let now = clock.now
    decide { $0.machine.timerFired(generation: generation, now: now) }
  }

  @inlinable func startTimer(generation: UInt64, deadline: C.Instant) {
    let wake = ClockWake.schedule(on: clock, at: deadline) { [self] in timerFired(generation: generation) }
    decide { $0.machine.timerScheduled(wake, generation: generation) }
  }

  /// Asks the machine under the lock, and queues what it emits there too, so that the order of
  /// the outputs is the order of the decisions; then acts outside the lock.
  @inlinable func decide(_ event: (inout State) -> Machine.Action) {
    let (action, delivery) = state.withLock { state -> (Machine.Action, PushDelivery<Receiver>?) in
      // Taken apart (consumed) and put together again: an element bound from the action while it
      // was borrowed was copied with the whole action, through the generic enum's value witness.
      let action = event(&state)
      switch consume action {
      case .emit(let element):
        return (.none, state.output.send(element))
      case .cancelTimerAndEmit(let wake, let element):
        return (.cancelTimer(wake), state.output.send(element))
      case .cancelTimerEmitAndFinish(let wake, let element):
        // At most one of the two is to be delivered now: the end waits behind the element.
        let emitted = element.flatMap { state.output.send($0) }
        let end = state.output.finish()
        return (.cancelTimer(wake), emitted ?? end)
      case .cancelTimerAndFail(let wake, let error):
        return (.cancelTimer(wake), state.output.finish(throwing: error))
      case let other:
        return (other, nil)
      }
    }
    perform(action, delivering: delivery)
  }

  /// Does what the machine decided, outside the lock: cancels and schedules timers, then
  /// delivers what was queued.
  @inlinable func perform(_ action: consuming Machine.Action, delivering delivery: consuming PushDelivery<Receiver>?) {
    // Consumed: borrowed, the action and the delivery were destroyed by the caller afterwards
    // through their generic types' value witnesses, a metadata lookup each, at every keystroke.
    switch consume action {
    case .none, .emit:
      break
    case .startTimer(let generation, let deadline):
      startTimer(generation: generation, deadline: deadline)
    case .cancelTimerAndStartTimer(let wake, let generation, let deadline):
      wake?.cancel()
      startTimer(generation: generation, deadline: deadline)
    case .cancelTimer(let wake), .cancelTimerAndEmit(let wake, _), .cancelTimerEmitAndFinish(let wake, _),
      .cancelTimerAndFail(let wake, _):
      wake?.cancel()
    }
    deliver(delivery, thenDrain: state) { $0.output.next() }
  }
}
