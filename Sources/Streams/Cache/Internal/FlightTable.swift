// The loads an AsyncCache has in flight, one per key, and who waits for each: the part of the
// cache that coalesces. A plain value whose transitions return what to do; the cache does it
// after releasing its lock (answers waiters, cancels a load's task).

/// The loads in flight by key and the callers waiting for each, as a state machine: every
/// transition returns an action for the caller to perform once its lock is released.
///
/// A load is known by its key and an id: a load abandoned by all its waiters leaves the table at
/// once, and a later load of the same key gets a new id, so the abandoned one's task and result
/// find nothing of theirs. @inlinable throughout so that it is specialised with AsyncCache.
@usableFromInline
struct FlightTable<Key: Hashable, Value: Sendable> {
  @usableFromInline typealias Waiter = LoadWaiter<Value>

  /// A load in flight and the callers waiting for it.
  @usableFromInline
  struct Flight {
    /// Tells this load from a later one for the same key, after this one was abandoned.
    @usableFromInline let id: UInt64
    /// The load's task; nil while it is being created, and for a load running at once on a
    /// caller's thread, which cannot be cancelled.
    @usableFromInline var task: Task<Void, Never>?
    @usableFromInline var waiters: [Waiter]
    /// False once the cache was cleared: the result still answers the waiters but is not stored.
    @usableFromInline var storesResult = true

    @inlinable init(id: UInt64, waiters: [Waiter]) {
      self.id = id
      self.waiters = waiters
    }
  }

  /// What a caller who missed takes part in.
  @usableFromInline
  enum JoinAction: Equatable {
    /// A new load with this id: the caller starts it (and attaches its task, if it has one).
    case start(UInt64)
    /// The load with this id, already in flight: it will answer the caller's waiter.
    case joined(UInt64)
  }

  /// What to do with a load's task once it exists.
  @usableFromInline
  enum AttachAction: Equatable {
    /// The load is still wanted: the table keeps its task.
    case keep
    /// Every waiter left (or the load finished) while the task was being created: cancel it.
    case cancel
  }

  /// What to do with a load's result.
  @usableFromInline
  enum FinishAction {
    /// The load was abandoned (and maybe replaced): nobody to answer, nothing to store.
    case drop
    /// Answer `waiters` with the result and, when `store`, store a successful value.
    case answer(waiters: [Waiter], store: Bool)
  }

  /// What to do after a caller left a load.
  @usableFromInline
  enum LeaveAction {
    /// Others still wait, or the load is gone already: nothing.
    case none
    /// Nobody waits any more: cancel the load's task (nil while it is being created, in which
    /// case attaching it cancels it).
    case cancelLoad(Task<Void, Never>?)
  }

  @usableFromInline var flights: [Key: Flight] = [:]
  @usableFromInline var lastID: UInt64 = 0

  @inlinable init() {}

  /// How many loads are in flight.
  @inlinable var count: Int { flights.count }

  /// Joins the load in flight for `key`, or starts one when there is none, found or stored with
  /// one hash of the key (every miss asks). `waiter`, told whether the load is started here,
  /// gives the waiter to add to it, if any.
  @inlinable mutating func join(_ key: Key, waiter: (_ started: Bool) -> Waiter?) -> JoinAction {
    // Ids only grow, so a flight with the next one is the one stored here.
    let next = lastID &+ 1
    let id = Self.add(to: &flights[key, default: Flight(id: next, waiters: [])], next: next, waiter: waiter)
    guard id == next else { return .joined(id) }
    lastID = next
    return .start(next)
  }

  /// Adds to `flight` (stored with id `next` if it is new) the waiter `waiter` gives; its id.
  @inlinable static func add(to flight: inout Flight, next: UInt64, waiter: (_ started: Bool) -> Waiter?) -> UInt64 {
    if let waiter = waiter(flight.id == next) { flight.waiters.append(waiter) }
    return flight.id
  }

  /// The task of load `id` for `key` was created.
  @inlinable mutating func attach(_ task: Task<Void, Never>, to id: UInt64, for key: Key) -> AttachAction {
    guard flights[key]?.id == id else { return .cancel }
    flights[key]?.task = task
    return .keep
  }

  /// Load `id` for `key` finished: it leaves the table.
  @inlinable mutating func finish(_ id: UInt64, for key: Key) -> FinishAction {
    // Found once and removed where found: a lookup and a removal by key hashed the key twice.
    guard let index = flights.index(forKey: key), flights.values[index].id == id else { return .drop }
    let flight = flights.remove(at: index).value
    return .answer(waiters: flight.waiters, store: flight.storesResult)
  }

  /// `waiter`, cancelled, leaves load `id` for `key`; the load leaves the table with its last
  /// waiter.
  @inlinable mutating func leave(_ id: UInt64, for key: Key, waiter: Waiter) -> LeaveAction {
    guard let index = flights.index(forKey: key), flights.values[index].id == id else { return .none }
    flights.values[index].waiters.removeAll { $0 === waiter }
    guard flights.values[index].waiters.isEmpty else { return .none }
    return .cancelLoad(flights.remove(at: index).value.task)
  }

  /// The cache was cleared: the loads in flight still answer their waiters but store nothing,
  /// since they may predate whatever made the caller clear it.
  @inlinable mutating func stopStoringResults() {
    for index in flights.indices { flights.values[index].storesResult = false }
  }
}
