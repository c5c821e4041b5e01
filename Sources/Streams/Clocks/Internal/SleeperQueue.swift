// The bookkeeping of ManualClock (the clock a VirtualTimeRunner moves): who sleeps until when,
// in what order they wake, and what happens when a sleeper is cancelled before or after it
// registered. Callers hold a lock around every method; continuations are resumed outside it.

/// Sleepers of a manually driven clock, ordered by (deadline, registration).
struct SleeperQueue: ~Copyable {
  typealias Continuation = UnsafeContinuation<Void, any Error>

  /// A sleeper's place in the wake-up order: its deadline, then the order it came in (its
  /// `order`, from one counter, so sleepers due at one instant wake first-come first-served);
  /// `id` finds its slot.
  private struct Key: Comparable {
    var deadline: Duration
    var order: UInt64
    var id: UInt64
    static func < (lhs: Key, rhs: Key) -> Bool {
      (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
    }
  }

  /// Where a sleeper's entry is kept, by the index in its id. Ids are the slot's index (low 32
  /// bits) and the slot's use count (high 32 bits), so an id names one use of a slot: a stale id
  /// (its sleeper woken or cancelled, the slot since reused) finds a different count and nothing.
  /// A table of slots rather than a dictionary keyed by id: every timer scheduled and fired
  /// hashed its id twice (a debounce re-arms a timer every keystroke or two).
  private struct Slot {
    var use: UInt32 = 0
    var order: UInt64 = 0
    var entry: Entry?
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
  /// The order of the next sleeper, and the id of the next count waiter.
  private var nextOrder: UInt64 = 0
  private var nextWaiterID: UInt64 = 0
  private var heap = MinHeap<Key>()
  private var slots: [Slot] = []
  /// Indices of the slots not in use.
  private var freeSlots: [UInt32] = []
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
    nextWaiterID &+= 1
    return nextWaiterID
  }

  mutating func reserve() -> UInt64 {
    store(.reserved)
  }

  /// Keeps `entry` in a free slot, next in the wake-up order; returns its id.
  private mutating func store(_ entry: Entry) -> UInt64 {
    nextOrder &+= 1
    let index: Int
    if let free = freeSlots.popLast() {
      index = Int(free)
    } else {
      index = slots.count
      slots.append(Slot())
    }
    slots[index].order = nextOrder
    slots[index].entry = entry
    return UInt64(slots[index].use) << 32 | UInt64(index)
  }

  /// The slot of the sleeper `id` names, if it is still kept.
  private func slot(of id: UInt64) -> Int? {
    let index = Int(truncatingIfNeeded: id & 0xFFFF_FFFF)
    guard index < slots.count, slots[index].use == UInt32(truncatingIfNeeded: id >> 32),
      slots[index].entry != nil
    else { return nil }
    return index
  }

  /// Frees the slot at `index`; ids naming it find nothing from now on.
  private mutating func release(_ index: Int) {
    slots[index].entry = nil
    slots[index].use &+= 1
    freeSlots.append(UInt32(truncatingIfNeeded: index))
  }

  /// The heap key of the sleeper in slot `index`, due at `deadline`.
  private func key(_ index: Int, id: UInt64, deadline: Duration) -> Key {
    Key(deadline: deadline, order: slots[index].order, id: id)
  }

  /// Registers a continuation; returns the result to resume it with at once, if any.
  mutating func register(
    _ id: UInt64, deadline: Duration, continuation: Continuation
  ) -> Result<Void, any Error>? {
    guard let index = slot(of: id) else {
      preconditionFailure("Internal inconsistency: sleeper \(id) registered twice")
    }
    switch slots[index].entry {
    case .cancelledEarly:
      release(index)
      return .failure(CancellationError())
    case .reserved where deadline <= now:
      release(index)
      return .success(())
    case .reserved:
      slots[index].entry = .waiting(continuation)
      heap.push(key(index, id: id, deadline: deadline))
      sleeperCount += 1
      return nil
    case .waiting, .callback, nil:
      preconditionFailure("Internal inconsistency: sleeper \(id) registered twice")
    }
  }

  /// Schedules `action` for `deadline` (after `now`); returns its id for ``cancelCallback(_:)``.
  mutating func schedule(_ action: @escaping @Sendable () -> Void, deadline: Duration) -> UInt64 {
    let id = store(.callback(action))
    heap.push(Key(deadline: deadline, order: nextOrder, id: id))
    sleeperCount += 1
    scheduledCallCount += 1
    return id
  }

  /// Removes a scheduled call that has not run; it never will.
  mutating func cancelCallback(_ id: UInt64) {
    guard let index = slot(of: id), case .callback = slots[index].entry else { return }
    release(index)
    sleeperCount -= 1
    scheduledCallCount -= 1
  }

  /// Removes a cancelled sleeper; returns its continuation if it was waiting.
  mutating func cancel(_ id: UInt64) -> Continuation? {
    guard let index = slot(of: id) else { return nil }
    switch slots[index].entry {
    case .reserved:
      // Cancelled before registering: remember, so registration throws.
      slots[index].entry = .cancelledEarly
      return nil
    case .waiting(let continuation):
      release(index)
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
    // The entry is taken as its key leaves the heap, and a stale key (its sleeper cancelled) is
    // dropped on the way.
    while let head = heap.min, head.deadline <= limit {
      heap.popMin()
      guard let index = slot(of: head.id) else {
        // Cancelled after it registered: its key stayed until it reached the top.
        continue
      }
      let entry = slots[index].entry
      switch entry {
      case .waiting(let continuation):
        // A task's sleep: resumed outside the lock.
        release(index)
        if head.deadline > now { now = head.deadline }
        sleeperCount -= 1
        return .resume(continuation)
      case .callback(let action):
        // A scheduled call: made outside the lock.
        release(index)
        if head.deadline > now { now = head.deadline }
        sleeperCount -= 1
        scheduledCallCount -= 1
        return .call(action)
      case nil:
        // Not reached: a free slot is found by no id.
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
      switch slot(of: head.id).flatMap({ slots[$0].entry }) {
      case .waiting, .callback: return
      case .reserved, .cancelledEarly, nil: heap.popMin()
      }
    }
  }
}
