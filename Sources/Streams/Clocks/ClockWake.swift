// The one way the operators wait for a deadline. On a ManualClock (tests, replay) a wake-up is a
// call the clock makes when time reaches it, on the thread moving time: no task, no job. On
// ContinuousClock and SuspendingClock it is an entry in the clock's one timer (ClockTimers), so
// a live session costs what a replayed one does. On any other clock, a task sleeps, then calls.

/// A call scheduled on a clock, with no task where the clock allows it.
///
/// Useful for timers in fused code (see ``PushableAsyncSequence``): on a ``ManualClock`` (tests,
/// a ``VirtualTimeRunner``'s replay) the call is made by whoever moves time to the deadline, on
/// that thread, with no task and no job. On `ContinuousClock` and `SuspendingClock` it is an entry
/// in the clock's one timer: one task per clock sleeps until the earliest entry and makes the calls
/// due, one after another in the order they were scheduled. On any other clock a task sleeps until
/// the deadline and then calls.
///
/// ```swift
/// let clock = ManualClock()
/// let fired = Recorder<Int64>()                    // StreamsTesting
/// let wake = ClockWake.schedule(on: clock, at: clock.now.advanced(by: .milliseconds(500))) {
///   fired.append(clock.now.milliseconds)
/// }
/// clock.advance(by: .milliseconds(499))            // fired.values == []
/// clock.advance(by: .milliseconds(1))              // fired.values == [500]
/// wake.cancel()                                    // too late: it has run, nothing happens
/// ```
///
/// - **Call**: once, when the clock reaches the deadline (inclusive); at once, before
///   `schedule` returns, when the deadline has been reached already.
/// - **Cancellation**: ``cancel()`` before the deadline means the call is never made.
public struct ClockWake: Sendable {
  @usableFromInline enum Kind: Sendable {
    case scheduled(ManualClock, UInt64)
    /// An entry in a live clock's one timer.
    case queued(any ClockTimerCancelling, UInt64)
    case sleeping(Task<Void, Never>)
    /// The deadline had passed: the action ran at once.
    case ran
  }

  @usableFromInline let kind: Kind

  /// Calls `action` once `clock` reaches `deadline`, unless cancelled first. A deadline already
  /// reached calls it at once, on this thread, before returning.
  @inlinable public static func schedule<C: Clock>(
    on clock: C, at deadline: C.Instant, _ action: @escaping @Sendable () -> Void
  ) -> ClockWake {
    if let manual = clock as? ManualClock, let instant = deadline as? ManualClock.Instant {
      return scheduleManual(manual, at: instant, action)
    }
    if let instant = deadline as? ContinuousClock.Instant, clock is ContinuousClock {
      return scheduleContinuous(at: instant, action)
    }
    if let instant = deadline as? SuspendingClock.Instant, clock is SuspendingClock {
      return scheduleSuspending(at: instant, action)
    }
    let task = Task(inheritingExecutor: {
      // Cancelled: whoever cancelled it has taken its place.
      guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
      action()
    })
    return ClockWake(kind: .sleeping(task))
  }

  @usableFromInline static func scheduleManual(
    _ clock: ManualClock, at deadline: ManualClock.Instant, _ action: @escaping @Sendable () -> Void
  ) -> ClockWake {
    guard let id = clock.schedule(at: deadline, action) else {
      action()
      return ClockWake(kind: .ran)
    }
    return ClockWake(kind: .scheduled(clock, id))
  }

  // One entry point per live clock, not one generic over the clock: called from another module,
  // a generic one ran the timer's heap and calls unspecialised, looking up the clock's types at
  // every comparison.
  @usableFromInline static func scheduleContinuous(
    at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void
  ) -> ClockWake {
    scheduleQueued(LiveClockTimers.continuous, at: deadline, action)
  }

  @usableFromInline static func scheduleSuspending(
    at deadline: SuspendingClock.Instant, _ action: @escaping @Sendable () -> Void
  ) -> ClockWake {
    scheduleQueued(LiveClockTimers.suspending, at: deadline, action)
  }

  static func scheduleQueued<Live: Clock>(
    _ timers: ClockTimers<Live>, at deadline: Live.Instant, _ action: @escaping @Sendable () -> Void
  ) -> ClockWake where Live.Duration == Duration {
    guard let id = timers.schedule(at: deadline, action) else {
      action()
      return ClockWake(kind: .ran)
    }
    return ClockWake(kind: .queued(timers, id))
  }

  @inlinable init(kind: Kind) { self.kind = kind }

  /// Stops the call if it has not been made; one running or made is not affected.
  @inlinable public func cancel() { cancelWake() }

  /// Stops the wake-up; an action already running or run is not affected.
  @usableFromInline func cancelWake() {
    switch kind {
    case .scheduled(let clock, let id): clock.cancelScheduled(id)
    case .queued(let timers, let id): timers.cancel(id)
    case .sleeping(let task): task.cancel()
    case .ran: break
    }
  }
}
