// The bookkeeping of ManualClock (the clock a VirtualTimeRunner moves): who sleeps until when,
// in what order they wake, and what happens when a sleeper is cancelled before or after it
// registered. Callers hold a lock around every method; continuations are resumed outside it.

/// Sleepers of a manually driven clock, ordered by (deadline, registration).
struct SleeperQueue: ~Copyable {
  typealias Continuation = UnsafeContinuation<Void, any Error>

  private struct Key: Comparable {
    var deadline: Duration
    var id: UInt64
    static func < (lhs: Key, rhs: Key) -> Bool {
      (lhs.deadline, lhs.id) < (rhs.deadline, rhs.id)
    }
  }

  private enum Entry {
    /// `sleep` is between taking an id and registering its continuation.
    case reserved
    /// Cancelled before its continuation was registered: registration must throw at once.
    case cancelledEarly
    case waiting(Continuation)
    /// A scheduled call (`ManualClock.schedule`): run by whoever moves time, with no task.
    case callback(@Sendable () -> Void)
  }

  /// One sleeper due: a task to resume, or a call to make. Made outside the lock.
  enum Wake {
    case resume(Continuation)
    case call(@Sendable () -> Void)

    func fire() {
      switch self {
      case .resume(let continuation): continuation.resume()
      case .call(let action): action()
      }
    }
  }

  private(set) var now: Duration
  private var nextID: UInt64 = 0
  private var heap = MinHeap<Key>()
  private var entries: [UInt64: Entry] = [:]
  private(set) var sleeperCount = 0 {
    didSet { changes &+= 1 }
  }
  /// How many of the sleepers are scheduled calls rather than tasks.
  private(set) var scheduledCallCount = 0
  /// Bumped whenever a sleeper registers, wakes or is cancelled: the runner compares it across
  /// a main-queue round to tell whether anything happened.
  private(set) var changes: UInt64 = 0
  /// Tasks awaiting a sleeper count (`ManualClock.sleepers(atLeast:)`), by id.
  private var countWaiters: [UInt64: (count: Int, continuation: UnsafeContinuation<Void, Never>)] = [:]
  /// Ids abandoned (timed out or cancelled) before their waiter registered: the late waiter
  /// must return at once, or nothing would ever resume it.
  private var abandonedCountWaiters: Set<UInt64> = []

  init(now: Duration) { self.now = now }

  /// Registers a task waiting until at least `count` sleepers wait; returns false (and keeps
  /// nothing) when that is already so, or when `id` was abandoned before it got here.
  mutating func awaitCount(
    _ count: Int, id: UInt64, continuation: UnsafeContinuation<Void, Never>
  ) -> Bool {
    if abandonedCountWaiters.remove(id) != nil { return false }
    guard sleeperCount < count else { return false }
    countWaiters[id] = (count, continuation)
    return true
  }

  /// Removes a count waiter (timed out or cancelled); returns its continuation if it waited.
  mutating func removeCountWaiter(_ id: UInt64) -> UnsafeContinuation<Void, Never>? {
    guard let waiter = countWaiters.removeValue(forKey: id) else {
      abandonedCountWaiters.insert(id)
      return nil
    }
    return waiter.continuation
  }

  /// Removes and returns the count waiters now satisfied; callers resume them outside the lock.
  mutating func takeSatisfiedCountWaiters() -> [UnsafeContinuation<Void, Never>] {
    guard !countWaiters.isEmpty else { return [] }
    let satisfied = countWaiters.filter { $0.value.count <= sleeperCount }
    for id in satisfied.keys { countWaiters[id] = nil }
    return satisfied.sorted { $0.key < $1.key }.map(\.value.continuation)
  }

  /// A fresh id for a count waiter, from the sleepers' sequence.
  mutating func reserveWaiterID() -> UInt64 {
    nextID &+= 1
    return nextID
  }

  mutating func reserve() -> UInt64 {
    nextID &+= 1
    entries[nextID] = .reserved
    return nextID
  }

  /// Registers a continuation; returns the result to resume it with at once, if any.
  mutating func register(
    _ id: UInt64, deadline: Duration, continuation: Continuation
  ) -> Result<Void, any Error>? {
    switch entries[id] {
    case .cancelledEarly:
      entries[id] = nil
      return .failure(CancellationError())
    case .reserved where deadline <= now:
      entries[id] = nil
      return .success(())
    case .reserved:
      entries[id] = .waiting(continuation)
      heap.push(Key(deadline: deadline, id: id))
      sleeperCount += 1
      return nil
    case .waiting, .callback, nil:
      preconditionFailure("Internal inconsistency: sleeper \(id) registered twice")
    }
  }

  /// Schedules `action` for `deadline` (after `now`); returns its id for ``cancelCallback(_:)``.
  mutating func schedule(_ action: @escaping @Sendable () -> Void, deadline: Duration) -> UInt64 {
    nextID &+= 1
    entries[nextID] = .callback(action)
    heap.push(Key(deadline: deadline, id: nextID))
    sleeperCount += 1
    scheduledCallCount += 1
    return nextID
  }

  /// Removes a scheduled call that has not run; it never will.
  mutating func cancelCallback(_ id: UInt64) {
    guard case .callback = entries[id] else { return }
    entries[id] = nil
    sleeperCount -= 1
    scheduledCallCount -= 1
  }

  /// Removes a cancelled sleeper; returns its continuation if it was waiting.
  mutating func cancel(_ id: UInt64) -> Continuation? {
    switch entries[id] {
    case .reserved:
      // Cancelled before registering: remember, so registration throws.
      entries[id] = .cancelledEarly
      return nil
    case .waiting(let continuation):
      entries[id] = nil
      sleeperCount -= 1
      return continuation
    case .cancelledEarly, .callback, nil:
      // Already woken or already cancelled (or not a task's sleep): nothing to do.
      return nil
    }
  }

  /// The earliest deadline of a sleeper still waiting.
  mutating func nextDeadline() -> Duration? {
    dropStaleHead()
    return heap.min?.deadline
  }

  /// Moves time to the earliest deadline if it is at or before `limit`, and removes the first
  /// sleeper due then (the one registered first). Returns nil when no sleeper is due by `limit`.
  ///
  /// One at a time, so that whoever moves time can let each wake-up finish what needs no wait
  /// before the next one fires: FIFO by registration within an instant, for tasks and calls alike.
  mutating func popFirstDue(notAfter limit: Duration) -> Wake? {
    // One lookup per key: the entry is taken as its key leaves the heap, and a stale key (its
    // sleeper cancelled) is dropped on the way.
    while let head = heap.min, head.deadline <= limit {
      heap.popMin()
      switch entries.removeValue(forKey: head.id) {
      case .waiting(let continuation):
        // A task's sleep: resumed outside the lock.
        if head.deadline > now { now = head.deadline }
        sleeperCount -= 1
        return .resume(continuation)
      case .callback(let action):
        // A scheduled call: made outside the lock.
        if head.deadline > now { now = head.deadline }
        sleeperCount -= 1
        scheduledCallCount -= 1
        return .call(action)
      case nil:
        // Cancelled after it registered: its key stayed until it reached the top.
        continue
      case .reserved, .cancelledEarly:
        // A key enters the heap only once its sleeper is waiting or scheduled.
        preconditionFailure("Internal inconsistency: sleeper \(head.id) in the heap is not waiting")
      }
    }
    return nil
  }

  mutating func setNow(_ instant: Duration) {
    if instant > now { now = instant }
  }

  /// Heap keys of cancelled sleepers stay until they reach the top: drop them there.
  private mutating func dropStaleHead() {
    while let head = heap.min {
      switch entries[head.id] {
      case .waiting, .callback: return
      case .reserved, .cancelledEarly, nil: heap.popMin()
      }
    }
  }
}
