// One timer per live clock. A debounce deadline, a timeout or a sweep on ContinuousClock or
// SuspendingClock is an entry in that clock's heap, and one task sleeps on the clock until the
// earliest entry: a live session costs an entry, not a sleeping task, as on a ManualClock.
import Synchronization

/// Calls scheduled on a live clock, in (deadline, registration) order, made by one task that
/// sleeps on the clock until the earliest.
///
/// - Call: once the clock has reached its deadline; calls due together are made one after
///   another, in the order they were scheduled, on the timer's task.
/// - Cancellation: a call cancelled before it is made is never made.
/// - The task sleeps only while a call is scheduled; an earlier deadline replaces it with a
///   task sleeping until then.
@usableFromInline
final class ClockTimers<C: Clock>: Sendable where C.Duration == Duration {
  // A deadline is kept as its offset from the timer's origin: the standard library's instants are
  // resilient (their size and comparison are looked up at run time, each copy a memmove), while a
  // Duration is two integers compared inline.
  fileprivate struct Key: Comparable {
    var deadline: Duration
    var id: UInt64

    static func < (lhs: Key, rhs: Key) -> Bool {
      lhs.deadline < rhs.deadline || (lhs.deadline == rhs.deadline && lhs.id < rhs.id)
    }
  }

  fileprivate enum Sleeper {
    /// No call is scheduled: no task runs.
    case none
    /// The task of `generation` sleeps until `until`, the earliest call's deadline.
    case sleeping(generation: UInt64, until: Duration)
    /// The task of `generation` makes the calls that are due.
    case firing(generation: UInt64)
  }

  fileprivate struct State {
    var heap = MinHeap<Key>()
    var calls: [UInt64: @Sendable () -> Void] = [:]
    var lastID: UInt64 = 0
    var sleeper = Sleeper.none
    var generation: UInt64 = 0
    /// The task of the current generation, once recorded: cancelled when an earlier deadline
    /// needs a task of its own.
    var task: Task<Void, Never>?
  }

  /// What the timer's task does next.
  fileprivate enum Step {
    case call(@Sendable () -> Void)
    case sleep(until: Duration)
    case stop
  }

  private let clock: C
  /// The instant deadlines are offsets from.
  private let origin: C.Instant
  private let state = Mutex(State())

  init(clock: C) {
    self.clock = clock
    origin = clock.now
  }

  /// Schedules `action` for `deadline`; returns its id for ``cancel(_:)``, or nil, without
  /// scheduling, when the clock has reached `deadline` already (the caller acts at once).
  @usableFromInline func schedule(at deadline: C.Instant, _ action: @escaping @Sendable () -> Void) -> UInt64? {
    guard deadline > clock.now else { return nil }
    let deadline = offset(of: deadline)
    let (id, start, replaced) = state.withLock { state -> (UInt64, UInt64?, Task<Void, Never>?) in
      state.lastID &+= 1
      state.heap.push(Key(deadline: deadline, id: state.lastID))
      state.calls[state.lastID] = action
      switch state.sleeper {
      case .none:
        // The first call: a task starts sleeping until it.
        state.generation &+= 1
        state.sleeper = .sleeping(generation: state.generation, until: deadline)
        return (state.lastID, state.generation, nil)
      case .sleeping(_, let until) where deadline < until:
        // Earlier than the sleeping task wakes: a new task sleeps until it, the old one stops.
        state.generation &+= 1
        state.sleeper = .sleeping(generation: state.generation, until: deadline)
        defer { state.task = nil }
        return (state.lastID, state.generation, state.task)
      case .sleeping, .firing:
        // The task wakes in time for it, or is making calls and will look at it next.
        return (state.lastID, nil, nil)
      }
    }
    replaced?.cancel()
    if let start { startSleeper(generation: start, until: deadline) }
    return id
  }

  /// Cancels a call that has not been made; it never will be.
  @usableFromInline func cancel(_ id: UInt64) {
    // The heap's key stays until it reaches the top, where it is dropped.
    _ = state.withLock { $0.calls.removeValue(forKey: id) }
  }

  /// `instant` as an offset from the origin.
  private func offset(of instant: C.Instant) -> Duration {
    origin.duration(to: instant)
  }

  private func startSleeper(generation: UInt64, until first: Duration) {
    // Detached: the one timer of a live clock belongs to no task and to no virtual-time runner;
    // the calls it makes start what they start as plain tasks.
    let task = Task.detached { [self] in
      var deadline = first
      while true {
        // Cancelled: a task sleeping until an earlier deadline has taken its place.
        guard (try? await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil)) != nil else { return }
        while true {
          let now = offset(of: clock.now)
          switch state.withLock({ $0.next(at: now, generation: generation) }) {
          case .call(let action):
            action()
            continue
          case .sleep(let until):
            deadline = until
          case .stop:
            return
          }
          break
        }
      }
    }
    let stale = state.withLock { state -> Bool in
      // Replaced before it was recorded (or woken, done and stopped already): nothing to keep.
      guard state.generation == generation, state.sleeper.isAwaitingOrRunning else { return true }
      state.task = task
      return false
    }
    if stale { task.cancel() }
  }
}

extension ClockTimers.State {
  /// The next step of the task of `generation`, awake at `now`.
  fileprivate mutating func next(at now: Duration, generation current: UInt64) -> ClockTimers.Step {
    guard generation == current, sleeper.isAwaitingOrRunning else {
      // A newer task has taken over.
      return .stop
    }
    while let head = heap.min {
      guard let call = calls[head.id] else {
        // Cancelled: drop its key.
        heap.popMin()
        continue
      }
      guard head.deadline <= now else {
        // Nothing more is due: sleep until the next call.
        sleeper = .sleeping(generation: current, until: head.deadline)
        return .sleep(until: head.deadline)
      }
      heap.popMin()
      calls[head.id] = nil
      sleeper = .firing(generation: current)
      return .call(call)
    }
    // Nothing is scheduled: the task ends, and the next call starts another.
    sleeper = .none
    task = nil
    return .stop
  }
}

extension ClockTimers.Sleeper {
  /// Whether a task sleeps or makes calls.
  fileprivate var isAwaitingOrRunning: Bool {
    if case .none = self { return false }
    return true
  }
}

/// The one timer of each live clock of the standard library. Their instances are all alike (no
/// state of their own), so one per type serves every caller.
@usableFromInline
enum LiveClockTimers {
  @usableFromInline static let continuous = ClockTimers(clock: ContinuousClock())
  @usableFromInline static let suspending = ClockTimers(clock: SuspendingClock())
}

/// What a ``ClockWake`` needs of a clock's timer: to cancel a call.
@usableFromInline
protocol ClockTimerCancelling: AnyObject, Sendable {
  /// Cancels the call `id` if it has not been made.
  func cancel(_ id: UInt64)
}

extension ClockTimers: ClockTimerCancelling {}
