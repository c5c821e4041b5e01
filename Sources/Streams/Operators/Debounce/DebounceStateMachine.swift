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

  @usableFromInline
  enum State: Sendable {
    /// Nothing pending, no timer.
    case idle
    /// `element` waits for `deadline`; `timer` wakes at or before it.
    case pending(element: Element, deadline: Instant, timer: Timer)
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
  ///
  /// Each case binds the state's data once and decides inside: a `case … where` per rule bound
  /// (copied, the timer's wake retaining its clock) and released the payload again for every
  /// rule tried, on every keystroke.
  @inlinable mutating func element(_ element: Element, deadline: Instant, now: Instant) -> Action {
    switch takeState() {
    case .idle:
      if deadline <= now {
        // A zero quiet period: emit at once.
        state = .idle
        return .emit(element)
      }
      // The first element of a burst: it waits, and a timer is set for it.
      let timer = nextTimer(deadline: deadline)
      state = .pending(element: element, deadline: deadline, timer: timer)
      return .startTimer(generation: timer.generation, deadline: deadline)
    case .pending(_, _, let timer):
      if deadline <= now {
        // A zero quiet period supersedes the pending element: emit at once.
        state = .idle
        return .cancelTimerAndEmit(timer.wake, element)
      }
      if timer.deadline <= deadline {
        // The running timer wakes first and re-arms for the later deadline: no new timer.
        state = .pending(element: element, deadline: deadline, timer: timer)
        return .none
      }
      // A shorter quiet period than the last: the running timer would wake too late.
      let replacement = nextTimer(deadline: deadline)
      state = .pending(element: element, deadline: deadline, timer: replacement)
      return .cancelTimerAndStartTimer(timer.wake, generation: replacement.generation, deadline: deadline)
    case .ended:
      // The consumer left while the base was pushing: nothing more is emitted.
      state = .ended
      return .none
    }
  }

  /// The timer of `generation` was scheduled as `wake`.
  @inlinable mutating func timerScheduled(_ wake: ClockWake, generation: UInt64) -> Action {
    switch takeState() {
    case .pending(let element, let deadline, var timer):
      guard timer.generation == generation else {
        // Replaced while being scheduled: it has no work left.
        state = .pending(element: element, deadline: deadline, timer: timer)
        return .cancelTimer(wake)
      }
      // The usual case: keep it, to cancel it if the element is superseded or the consumer leaves.
      timer.wake = wake
      state = .pending(element: element, deadline: deadline, timer: timer)
      return .none
    case let current:
      // It fired already (a deadline reached while scheduling), or it was stopped while being
      // scheduled: it has no work left.
      state = current
      return .cancelTimer(wake)
    }
  }

  /// The timer of `generation` woke at `now`.
  @inlinable mutating func timerFired(generation: UInt64, now: Instant) -> Action {
    switch takeState() {
    case .pending(let element, let deadline, let timer):
      guard timer.generation == generation else {
        // A replaced timer whose cancellation raced its wake-up: ignore it.
        state = .pending(element: element, deadline: deadline, timer: timer)
        return .none
      }
      if deadline <= now {
        // The quiet period has passed: emit.
        state = .idle
        return .emit(element)
      }
      // A newer element moved the deadline: wake again then, under the same generation.
      state = .pending(element: element, deadline: deadline, timer: Timer(generation: generation, deadline: deadline))
      return .startTimer(generation: generation, deadline: deadline)
    case let current:
      // A timer whose element was emitted or dropped meanwhile: ignore it.
      state = current
      return .none
    }
  }

  /// The base finished.
  @inlinable mutating func baseFinished() -> Action {
    switch state {
    case .idle:
      // Nothing pending: finish.
      state = .ended
      return .cancelTimerEmitAndFinish(nil, nil)
    case .pending(let element, _, let timer):
      // The base ended: the pending element need not wait for its deadline.
      state = .ended
      return .cancelTimerEmitAndFinish(timer.wake, element)
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
    case .pending(_, _, let timer):
      // The pending element is dropped with its timer.
      state = .ended
      return .cancelTimerAndFail(timer.wake, error)
    case .ended:
      // The consumer left first: nothing to deliver.
      return .none
    }
  }

  /// The consumer left (cancelled its subscription, or its task).
  @inlinable mutating func cancelled() -> Action {
    switch state {
    case .pending(_, _, let timer):
      // The pending element will never be emitted: stop its timer.
      state = .ended
      return .cancelTimer(timer.wake)
    case .idle, .ended:
      // No timer runs.
      state = .ended
      return .none
    }
  }

  /// The state, moved out for a transition, which sets the next one (`ended` until it does).
  /// Matched where it is stored, the pending element and its timer were copied, retained and
  /// released on every keystroke and every wake-up.
  @inlinable mutating func takeState() -> State {
    var taken = State.ended
    swap(&taken, &state)
    return taken
  }

  @inlinable mutating func nextTimer(deadline: Instant) -> Timer {
    generation &+= 1
    return Timer(generation: generation, deadline: deadline)
  }
}
