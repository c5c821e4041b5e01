// The decisions of AsyncCache, as a plain value: its entries, its loads in flight and its
// counters. Each event returns what to do (answer, start a load, cancel one), and the cache does
// it after releasing its lock.

/// Everything an ``AsyncCache`` decides under its lock: a lookup, a load's task attached, a load
/// finished, a caller leaving, the cache cleared.
///
/// @inlinable throughout so that it is specialised with AsyncCache (see there).
@usableFromInline
struct AsyncCacheStateMachine<Key: Hashable, Value: Sendable, Instant: InstantProtocol>
where Instant.Duration == Duration {
  @usableFromInline typealias Waiter = LoadWaiter<Value>
  @usableFromInline typealias Flights = FlightTable<Key, Value>

  /// What a caller that can wait does.
  @usableFromInline
  enum LookUpAction {
    /// Answer with this fresh value (origin `cached`).
    case hit(Value)
    /// The caller was cancelled before it asked: throw `CancellationError`, starting nothing.
    case cancelled
    /// Wait for load `id`, already in flight (origin `joined`).
    case joined(UInt64)
    /// Start load `id` and wait for it (origin `loaded`).
    case start(UInt64)
  }

  /// What a caller that cannot wait does.
  @usableFromInline
  enum AtOnceAction {
    /// Answer with this fresh value (origin `cached`).
    case hit(Value)
    /// Run load `id` at once, then finish it (origin `loaded`).
    case start(UInt64)
    /// A load is in flight: answer nothing, having changed nothing.
    case inFlight
  }

  @usableFromInline var entries: CacheEntries<Key, Value, Instant>
  @usableFromInline var flights = Flights()
  @usableFromInline var counters = CacheStatistics()

  @inlinable init(capacity: Int, timeToLive: Duration?) {
    entries = CacheEntries(capacity: capacity, timeToLive: timeToLive)
  }

  /// The fresh value for `key` at `now`, counted as a hit (or its entry as an expiration).
  @inlinable mutating func hit(for key: Key, now: Instant) -> Value? {
    switch entries.lookUp(key, now: now) {
    case .fresh(let value):
      counters.hits += 1
      return value
    case .expired:
      counters.expirations += 1
      return nil
    case .absent:
      return nil
    }
  }

  /// A caller that waits: a fresh hit; else, unless `cancelled`, the waiter `makeWaiter` gives
  /// for its origin joins the load in flight for `key` or starts a new one.
  @inlinable mutating func lookUp(
    _ key: Key, now: Instant, cancelled: Bool, makeWaiter: (CacheOrigin) -> Waiter
  ) -> LookUpAction {
    if let value = hit(for: key, now: now) { return .hit(value) }
    if cancelled { return .cancelled }
    switch flights.join(key, waiter: { started in makeWaiter(started ? .loaded : .joined) }) {
    case .start(let id):
      counters.loads += 1
      return .start(id)
    case .joined(let id):
      counters.joins += 1
      return .joined(id)
    }
  }

  /// A caller that cannot wait: a fresh hit; else a load it runs itself, unless one is in
  /// flight (which it does not join: joining is waiting).
  @inlinable mutating func lookUpAtOnce(_ key: Key, now: Instant) -> AtOnceAction {
    if let value = hit(for: key, now: now) { return .hit(value) }
    // A load in flight is left alone: nothing is added to it.
    guard case .start(let id) = flights.join(key, waiter: { _ in nil }) else { return .inFlight }
    counters.loads += 1
    return .start(id)
  }

  /// The task of load `id` exists; see ``FlightTable/attach(_:to:for:)``.
  @inlinable mutating func attach(_ task: Task<Void, Never>, to id: UInt64, for key: Key) -> Flights.AttachAction {
    flights.attach(task, to: id, for: key)
  }

  /// Load `id` for `key` finished with `result` at `now`: stores a value (unless the load was
  /// abandoned or the cache cleared since it started); returns the waiters to answer.
  @inlinable mutating func finish(
    _ id: UInt64, for key: Key, with result: Result<(Value, Instant?), any Error>, now: Instant
  ) -> [Waiter] {
    guard case .answer(let waiters, let store) = flights.finish(id, for: key) else { return [] }
    if store, case .success(let (value, obtainedAt)) = result,
      entries.store(value, for: key, obtainedAt: obtainedAt, now: now)
    {
      counters.evictions += 1
    }
    return waiters
  }

  /// `waiter`, cancelled, leaves load `id`; see ``FlightTable/leave(_:for:waiter:)``.
  @inlinable mutating func leave(_ id: UInt64, for key: Key, waiter: Waiter) -> Flights.LeaveAction {
    flights.leave(id, for: key, waiter: waiter)
  }

  /// Removes every entry; the loads in flight will store nothing.
  @inlinable mutating func removeAll() {
    entries.removeAll()
    flights.stopStoringResults()
  }
}
