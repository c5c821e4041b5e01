// The rules of debounce, free of locks, timers and receivers: what an element, a timer's
// wake-up, the base's end and the consumer's leaving each do. DebounceStorage holds it behind a
// lock and performs the returned action after releasing the lock.

/// Debounce's decisions: the pending element and its one timer.
///
/// One timer per burst: a newer element moves the pending deadline without touching the timer,
/// which re-arms for the new deadline when it wakes; only a deadline earlier than the timer's
/// (a shorter quiet period than the last) replaces it.
///
/// @usableFromInline rather than private, so that it is specialised in the module that uses
/// debounce (see PushOutput.swift); only DebounceStorage touches it.
@usableFromInline
struct DebounceStateMachine<Element: Sendable, Instant: Comparable & Sendable>: Sendable {
  /// The timer of a pending element: set for `deadline`, told apart from replaced ones by
  /// `generation`; `wake` is nil while it is being scheduled.
  @usableFromInline
  struct Timer: Sendable {
    @usableFromInline var generation: UInt64
    @usableFromInline var deadline: Instant
    @usableFromInline var wake: ClockWake?

    @inlinable init(generation: UInt64, deadline: Instant) {
      self.generation = generation
      self.deadline = deadline
    }
  }

  /// The burst being debounced: its latest element, that element's deadline, and the burst's
  /// one timer. A class, changed in place under the storage's lock: every keystroke of a burst
  /// replaces the element and moves the deadline, and rebuilding an enum case's payload for
  /// that took the state out and put it back, destroying each old state through the generic
  /// type's value witness (a metadata lookup per keystroke).
  ///
  /// `@unchecked Sendable`: it is reached only through the state machine, which only
  /// DebounceStorage touches, under its lock.
  @usableFromInline
  final class Burst: @unchecked Sendable {
    // Unchecked: only the storage's lock reaches them, and a dynamic access check on each read
    // and write (three per keystroke) cost more than the payload rebuild this replaces.
    @exclusivity(unchecked) @usableFromInline var element: Element
    @exclusivity(unchecked) @usableFromInline var deadline: Instant
    @exclusivity(unchecked) @usableFromInline var timer: Timer

    @inlinable init(element: Element, deadline: Instant, timer: Timer) {
      self.element = element
      self.deadline = deadline
      self.timer = timer
    }
  }

  @usableFromInline
  enum State: Sendable {
    /// Nothing pending, no timer.
    case idle
    /// The burst's element waits for its deadline; its timer wakes at or before it.
    case pending(Burst)
    /// The base ended or the consumer left: nothing more is emitted.
    case ended
  }

  /// What DebounceStorage does after releasing the lock.
  @usableFromInline
  enum Action: Sendable {
    /// Nothing to do.
    case none
    /// Emit `element` now.
    case emit(Element)
    /// Schedule a timer for `deadline` under `generation`.
    case startTimer(generation: UInt64, deadline: Instant)
    /// Cancel the running timer, then emit `element` now.
    case cancelTimerAndEmit(ClockWake?, Element)
    /// Cancel the running timer, then schedule the new one.
    case cancelTimerAndStartTimer(ClockWake?, generation: UInt64, deadline: Instant)
    /// A timer that lost its race to be recorded: cancel it.
    case cancelTimer(ClockWake?)
    /// Cancel the running timer (if any), emit `element` (if any), then finish.
    case cancelTimerEmitAndFinish(ClockWake?, Element?)
    /// Cancel the running timer (if any), drop the pending element, and fail with `error`.
    case cancelTimerAndFail(ClockWake?, any Error)
  }

  @usableFromInline var state = State.idle
  @usableFromInline var generation: UInt64 = 0

  @inlinable init() {}

  /// An element of the base arrived at `now`; its quiet period ends at `deadline`.
  @inlinable mutating func element(_ element: Element, deadline: Instant, now: Instant) -> Action {
    switch state {
    case .idle:
      if deadline <= now {
        // A zero quiet period: emit at once.
        return .emit(element)
      }
      // The first element of a burst: it waits, and a timer is set for it.
      let timer = nextTimer(deadline: deadline)
      state = .pending(Burst(element: element, deadline: deadline, timer: timer))
      return .startTimer(generation: timer.generation, deadline: deadline)
    case .pending(let burst):
      if deadline <= now {
        // A zero quiet period supersedes the pending element: emit at once.
        let wake = burst.timer.wake
        state = .idle
        return .cancelTimerAndEmit(wake, element)
      }
      burst.element = element
      burst.deadline = deadline
      if burst.timer.deadline <= deadline {
        // The running timer wakes first and re-arms for the later deadline: no new timer.
        return .none
      }
      // A shorter quiet period than the last: the running timer would wake too late.
      let replaced = burst.timer.wake
      burst.timer = nextTimer(deadline: deadline)
      return .cancelTimerAndStartTimer(replaced, generation: burst.timer.generation, deadline: deadline)
    case .ended:
      // The consumer left while the base was pushing: nothing more is emitted.
      return .none
    }
  }

  /// The timer of `generation` was scheduled as `wake`.
  @inlinable mutating func timerScheduled(_ wake: ClockWake, generation: UInt64) -> Action {
    switch state {
    case .pending(let burst) where burst.timer.generation == generation:
      // The usual case: keep it, to cancel it if the element is superseded or the consumer leaves.
      burst.timer.wake = wake
      return .none
    case .pending:
      // Replaced while being scheduled: it has no work left.
      return .cancelTimer(wake)
    case .idle, .ended:
      // It fired already (a deadline reached while scheduling), or it was stopped while being
      // scheduled: it has no work left.
      return .cancelTimer(wake)
    }
  }

  /// The timer of `generation` woke at `now`.
  @inlinable mutating func timerFired(generation: UInt64, now: Instant) -> Action {
    guard case .pending(let burst) = state, burst.timer.generation == generation else {
      // A replaced timer whose cancellation raced its wake-up, or a timer whose element was
      // emitted or dropped meanwhile: ignore it.
      return .none
    }
    if burst.deadline <= now {
      // The quiet period has passed: emit.
      state = .idle
      return .emit(burst.element)
    }
    // A newer element moved the deadline: wake again then, under the same generation.
    burst.timer = Timer(generation: generation, deadline: burst.deadline)
    return .startTimer(generation: generation, deadline: burst.deadline)
  }

  /// The base finished.
  @inlinable mutating func baseFinished() -> Action {
    switch state {
    case .idle:
      // Nothing pending: finish.
      state = .ended
      return .cancelTimerEmitAndFinish(nil, nil)
    case .pending(let burst):
      // The base ended: the pending element need not wait for its deadline.
      state = .ended
      return .cancelTimerEmitAndFinish(burst.timer.wake, burst.element)
    case .ended:
      // The consumer left first: nothing to deliver.
      return .none
    }
  }

  /// The base failed with `error`.
  @inlinable mutating func baseFailed(_ error: any Error) -> Action {
    switch state {
    case .idle:
      // Nothing pending: fail.
      state = .ended
      return .cancelTimerAndFail(nil, error)
    case .pending(let burst):
      // The pending element is dropped with its timer.
      state = .ended
      return .cancelTimerAndFail(burst.timer.wake, error)
    case .ended:
      // The consumer left first: nothing to deliver.
      return .none
    }
  }

  /// The consumer left (cancelled its subscription, or its task).
  @inlinable mutating func cancelled() -> Action {
    switch state {
    case .pending(let burst):
      // The pending element will never be emitted: stop its timer.
      state = .ended
      return .cancelTimer(burst.timer.wake)
    case .idle, .ended:
      // No timer runs.
      state = .ended
      return .none
    }
  }

  @inlinable mutating func nextTimer(deadline: Instant) -> Timer {
    generation &+= 1
    return Timer(generation: generation, deadline: deadline)
  }
}
