// The decisions of debounce, free of locks and tasks: what to do on an element, a timer's
// wake-up, the end of the base, and the consumer going away.

/// Debounce's state: the pending element, the one timer, and the consumer side (a consumer
/// task pulling, or a receiver pushed to).
///
/// @usableFromInline rather than private throughout, so that it is specialised in the module
/// that uses debounce (see Downstream.swift); only DebounceStorage touches it.
@usableFromInline
struct DebounceStateMachine<Element: Sendable, Instant: Comparable>: PumpedOperatorState {
  /// What the storage does after releasing the lock.
  @usableFromInline
  struct Action {
    @usableFromInline var resumption: Resumption<Element>?
    @usableFromInline var cancelTimer: ClockWake?
    @usableFromInline var cancelPump: Task<Void, Never>?
    @usableFromInline var cancelUpstream: PushSubscription?
    @usableFromInline var startTimer: (generation: UInt64, deadline: Instant)?

    @inlinable init() {}
  }

  @usableFromInline var pending: (element: Element, deadline: Instant)?
  @usableFromInline var timer: (wake: ClockWake?, generation: UInt64, deadline: Instant)?
  @usableFromInline var timerGeneration: UInt64 = 0
  @usableFromInline var pump: Task<Void, Never>?
  /// Push mode: the subscription to the base, which takes the place of the pump.
  @usableFromInline var upstream: PushSubscription?
  @usableFromInline var consumerHasLeft = false
  @usableFromInline var downstream = Downstream<Element>()

  @inlinable init() {}

  @inlinable mutating func timerStarted(_ wake: ClockWake, generation: UInt64) -> ClockWake? {
    // A newer timer replaced this one while it was being created: it has no work.
    guard let current = timer, current.generation == generation else { return wake }
    timer?.wake = wake
    return nil
  }

  /// Push mode: records the subscription to the base; returns it to be cancelled when the
  /// consumer left meanwhile.
  @inlinable mutating func upstreamStarted(_ subscription: PushSubscription) -> PushSubscription? {
    guard !consumerHasLeft else { return subscription }
    upstream = subscription
    return nil
  }

  @inlinable mutating func element(_ element: Element, deadline: Instant, now: Instant) -> Action {
    var action = Action()
    guard !downstream.isEnded else { return action }
    if deadline <= now {
      // A zero quiet period: emit at once; any pending element is superseded.
      pending = nil
      action.cancelTimer = takeTimer()
      action.resumption = downstream.send(element)
      return action
    }
    pending = (element, deadline)
    if let current = timer, current.deadline <= deadline {
      // The running timer wakes first and re-arms for the later deadline: no new task.
      return action
    }
    // No timer, or one that would wake too late (a shorter period than the last): replace it.
    action.cancelTimer = takeTimer()
    timerGeneration &+= 1
    timer = (nil, timerGeneration, deadline)
    action.startTimer = (timerGeneration, deadline)
    return action
  }

  /// A timer woke at `now`: emit the pending element if due, or say when to wake again.
  @inlinable mutating func timerFired(generation: UInt64, now: Instant) -> (Resumption<Element>?, rearm: Instant?) {
    guard let current = timer, current.generation == generation else {
      // A replaced timer whose cancellation raced its wake-up: ignore it.
      return (nil, nil)
    }
    guard let due = pending else {
      // The pending element was emitted or superseded by a zero-period element.
      timer = nil
      return (nil, nil)
    }
    if due.deadline <= now {
      pending = nil
      timer = nil
      return (downstream.send(due.element), nil)
    }
    // A newer element moved the deadline: wake again then, under the same generation.
    timer = (nil, generation, due.deadline)
    return (nil, due.deadline)
  }

  @inlinable mutating func baseFinished() -> Action {
    var action = Action()
    action.cancelTimer = takeTimer()
    if let due = pending {
      // The base ended: the pending element need not wait for its deadline.
      pending = nil
      action.resumption = downstream.send(due.element)
    }
    // At most one of the two resumes the consumer: finish() waits behind a buffered element.
    let end = downstream.finish()
    action.resumption = action.resumption ?? end
    return action
  }

  @inlinable mutating func baseFailed(_ error: any Error) -> Action {
    pending = nil
    var action = Action()
    action.cancelTimer = takeTimer()
    action.resumption = downstream.finish(throwing: error)
    return action
  }

  @inlinable mutating func consumerCancelled() -> Action {
    consumerHasLeft = true
    pending = nil
    var action = Action()
    action.cancelTimer = takeTimer()
    action.cancelPump = pump
    pump = nil
    action.cancelUpstream = upstream
    upstream = nil
    action.resumption = downstream.cancel()
    return action
  }

  @inlinable mutating func takeTimer() -> ClockWake? {
    defer { timer = nil }
    return timer?.wake
  }
}
