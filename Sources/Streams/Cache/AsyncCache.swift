// A bounded, expiring, coalescing cache of async loads: the typeahead's answer to "the same
// query again" (answer from memory) and "the same query, still loading" (wait for that load).
import Synchronization

/// A least-recently-used cache of values that are expensive to load, with an optional time to
/// live on an injected clock, that runs at most one load per key at a time.
///
/// Useful in front of a fetch: repeated keys are answered from memory, and callers that ask for
/// a key whose load is still running wait for that load instead of starting another.
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let clock = runner.clock                 // ContinuousClock() in production
/// let cache = AsyncCache<String, [String], ManualClock>(capacity: 256, timeToLive: .seconds(30), clock: clock)
/// @Sendable func search(_ query: String) async throws -> [String] {
///   try await clock.sleep(for: .milliseconds(100)); return ["\(query) (song)"]
/// }
/// let first = try runner.run { try await cache.value(for: "tay") { try await search("tay") } }
/// // first.origin == .loaded, after 100 ms (runner.now == .milliseconds(100))
/// let again = try runner.run { try await cache.value(for: "tay") { try await search("tay") } }
/// // again.origin == .cached at once, with the same value
/// ```
///
/// In a test, hand it a ``VirtualTimeRunner``'s clock and check each instant exactly:
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let cache = AsyncCache<String, Int, ManualClock>(capacity: 2, timeToLive: .seconds(1),
///                                                  clock: runner.clock)
/// try runner.run { _ = try await cache.value(for: "a") { 1 } }       // loaded at 0 ms
/// runner.advance(to: .milliseconds(999))
/// let hit = try runner.run { try await cache.value(for: "a") { 2 }.origin }   // .cached
/// runner.advance(to: .milliseconds(1_000))
/// let miss = try runner.run { try await cache.value(for: "a") { 2 }.origin }  // .loaded (expired)
/// ```
///
/// ## Detailed design
/// - **Bounded LRU.** At most `capacity` entries are stored; a hit makes its entry the most
///   recently used; storing into a full cache evicts the least recently used entry. O(1) each.
/// - **Time to live.** An entry stored at instant `t` (when its load finished, on `clock`) is a
///   hit strictly before `t + timeToLive` and a miss from `t + timeToLive` on. An expired entry
///   stays (counting towards `capacity`) until a successful load replaces it or it is evicted,
///   so ``staleValue(for:)`` can offer it when the reload fails.
/// - **Coalescing.** A miss keeps its load, an unstructured task, in the cache while it runs, so
///   every caller for that key that arrives meanwhile waits for the same load: six concurrent
///   callers cause one load; the first gets origin ``CacheOrigin/loaded``, the others
///   ``CacheOrigin/joined``, and all get its value or its error.
/// - **Failures are not cached.** Every caller waiting for a failed load gets the error; the next
///   call for the key loads again.
///
/// ## Cancellation
/// - A waiting caller whose task is cancelled throws `CancellationError` at once; the load goes
///   on for the callers still waiting, even if the cancelled caller started it.
/// - When the last waiting caller leaves, the load's task is cancelled and forgotten: its result,
///   should one still arrive, is not stored, and the next call for the key loads again.
/// - A call from an already cancelled task is still answered on a hit, and throws
///   `CancellationError` without starting or joining a load on a miss.
///
/// ## Performance
/// One lock, not an actor: a hit costs a lock and a hash lookup and no executor hop, so a
/// search answered from memory needs no task at all. The lookup, store and coalescing paths are
/// @inlinable (their state @usableFromInline rather than private) so that a cache whose key
/// and value are another module's types is specialised there: unspecialised, a hit spent most
/// of its time in generic-metadata lookups.
public final class AsyncCache<Key: Hashable & Sendable, Value: Sendable, C: Clock>: Sendable
where C.Duration == Duration {
  @usableFromInline
  struct Entry {
    @usableFromInline var value: Value
    /// The first instant at which the entry is a miss; nil when entries never expire.
    @usableFromInline var expiry: C.Instant?

    @inlinable init(value: Value, expiry: C.Instant?) {
      self.value = value
      self.expiry = expiry
    }
  }

  /// A load in flight and the callers waiting for it.
  @usableFromInline
  struct Flight {
    /// Tells this load from a later one for the same key, after this one was abandoned.
    @usableFromInline let id: UInt64
    /// The load's task; nil while it is being created, and for a load running at once on a
    /// caller's thread (``immediateValue(for:load:)``), which cannot be cancelled.
    @usableFromInline var task: Task<Void, Never>?
    @usableFromInline var waiters: [LoadWaiter<Value>]
    /// False after ``removeAll()``: the result still answers the waiters but is not stored.
    @usableFromInline var storesResult = true

    @inlinable init(id: UInt64, waiters: [LoadWaiter<Value>]) {
      self.id = id
      self.waiters = waiters
    }
  }

  /// What a lookup found under the lock.
  @usableFromInline
  enum LookUpStep {
    case hit(Value)
    case cancelled
    case joined(UInt64)
    case started(UInt64)
  }

  /// Everything behind the lock.
  @usableFromInline
  struct State {
    @usableFromInline var entries: LRUList<Key, Entry>
    @usableFromInline var flights: [Key: Flight] = [:]
    @usableFromInline var lastFlightID: UInt64 = 0
    @usableFromInline var counters = CacheStatistics()

    @inlinable init(capacity: Int) { entries = LRUList(capacity: capacity) }

    /// The stored value for `key` if it has not expired at `now`, marking it used. An expired
    /// entry is a miss but is kept (until a successful load replaces it, or it is evicted), so
    /// that ``staleValue(for:)`` can still offer it when the reload fails.
    @inlinable mutating func storedValue(for key: Key, now: C.Instant) -> Value? {
      guard let slot = entries.slot(of: key) else { return nil }
      if hasExpired(at: slot, now: now) {
        counters.expirations += 1
        return nil
      }
      entries.markUsed(slot)
      return entries.element(at: slot).value
    }

    /// ``storedValue(for:now:)``, counted as a hit when there is one.
    @inlinable mutating func hit(for key: Key, now: C.Instant) -> Value? {
      guard let value = storedValue(for: key, now: now) else { return nil }
      counters.hits += 1
      return value
    }

    /// Whether the entry at `slot` is a miss at `now`: from its expiry instant on (inclusive).
    @inlinable func hasExpired(at slot: Int, now: C.Instant) -> Bool {
      guard let expiry = entries.element(at: slot).expiry else { return false }
      return now >= expiry
    }

    /// The lookup of both the awaiting and the delivered forms: a fresh hit; else, unless
    /// `cancelled`, the waiter `makeWaiter` gives for its origin joins the load in flight for
    /// `key` or starts a new one.
    @inlinable mutating func register(
      _ key: Key, now: C.Instant, cancelled: Bool, makeWaiter: (CacheOrigin) -> LoadWaiter<Value>
    ) -> LookUpStep {
      if let value = hit(for: key, now: now) { return .hit(value) }
      if cancelled { return .cancelled }
      let flight = joinOrStartFlight(for: key) { started in makeWaiter(started ? .loaded : .joined) }
      guard flight.started else {
        counters.joins += 1
        return .joined(flight.id)
      }
      return .started(flight.id)
    }

    /// The load in flight for `key`, or a new one when there is none, found or stored with one
    /// hash of the key (every miss asks): its id, and whether it was started here. `waiter`,
    /// told whether the load was started here, gives the waiter to add to it, if any.
    @inlinable mutating func joinOrStartFlight(
      for key: Key, waiter: (_ started: Bool) -> LoadWaiter<Value>?
    ) -> (id: UInt64, started: Bool) {
      // Ids only grow, so a flight with the next one is the one stored here.
      let next = lastFlightID &+ 1
      let flight = Self.join(&flights[key, default: Flight(id: next, waiters: [])], next: next, waiter: waiter)
      if flight.started {
        lastFlightID = next
        counters.loads += 1
      }
      return flight
    }

    /// Adds to `flight` (stored with id `next` if it was new) the waiter `waiter` gives, if any.
    @inlinable static func join(
      _ flight: inout Flight, next: UInt64, waiter: (_ started: Bool) -> LoadWaiter<Value>?
    ) -> (id: UInt64, started: Bool) {
      let started = flight.id == next
      if let waiter = waiter(started) { flight.waiters.append(waiter) }
      return (flight.id, started)
    }

    /// A load finished: stores its value (unless abandoned or cleared); returns the waiters to
    /// answer.
    @inlinable mutating func finish(
      _ id: UInt64, for key: Key, with result: Result<(Value, C.Instant?), any Error>, now: C.Instant,
      timeToLive: Duration?
    ) -> [LoadWaiter<Value>] {
      // Abandoned by all its waiters (and maybe replaced by a newer load): drop the result.
      // Found once and removed where found: a lookup and a removal by key hashed the key twice.
      guard let index = flights.index(forKey: key), flights.values[index].id == id else { return [] }
      let flight = flights.remove(at: index).value
      if case .success(let (value, obtainedAt)) = result, flight.storesResult {
        // Never later than now: a value cannot live longer for having been obtained "later".
        let start = obtainedAt.map { min($0, now) } ?? now
        let expiry = timeToLive.map { start.advanced(by: $0) }
        if entries.insert(Entry(value: value, expiry: expiry), for: key) != nil {
          counters.evictions += 1
        }
      }
      return flight.waiters
    }
  }

  @usableFromInline let state: Mutex<State>
  @usableFromInline let timeToLive: Duration?
  @usableFromInline let clock: C

  /// Counters of hits, loads, joins, evictions and expirations since the cache was created.
  public var statistics: CacheStatistics { state.withLock { $0.counters } }

  /// Creates an empty cache.
  ///
  /// - Parameters:
  ///   - capacity: the most entries stored. 0 (or less) stores nothing but still coalesces
  ///     concurrent loads of the same key.
  ///   - timeToLive: how long an entry stays a hit after its load finished, on `clock`; nil
  ///     keeps entries until they are evicted. Zero (or less) makes every entry expire at once.
  ///   - clock: the clock that tells when entries expire.
  public init(capacity: Int, timeToLive: Duration? = nil, clock: C) {
    state = Mutex(State(capacity: capacity))
    self.timeToLive = timeToLive
    self.clock = clock
  }

  /// How many entries are stored, expired ones included (they stay until replaced or evicted).
  public var count: Int { state.withLock { $0.entries.count } }

  /// The value for `key`: from memory if stored and unexpired, else from the load in flight for
  /// `key`, else from a new load that runs `load`.
  ///
  /// - Returns: the value and its ``CacheOrigin``. A successful new load stores the value (as
  ///   the most recently used entry, evicting the least recently used one if the cache is full).
  /// - Throws: the error the load threw (nothing is stored, the next call loads again), or
  ///   `CancellationError` at once when the caller's task is cancelled while it waits (the load
  ///   goes on for other waiters and is cancelled when none is left).
  @inlinable public func value(
    for key: Key, load: @escaping @Sendable () async throws -> Value
  ) async throws -> CacheAnswer<Value> {
    try await lookUp(key, load: { (try await load(), nil) })
  }

  /// The value for `key` as ``value(for:load:)`` gives it, from a load that also says when its
  /// value was obtained: its time to live counts from `obtainedAt`, not from when the load
  /// finished.
  ///
  /// Useful in front of a tier that keeps values (a file, another process): a value read there
  /// 50 minutes after it was fetched, with a time to live of an hour, expires here 10 minutes
  /// later. An `obtainedAt` after the load finished counts as the instant it finished; one
  /// `timeToLive` or more ago stores an entry that has already expired (the next call loads
  /// again; ``staleValue(for:)`` still offers it). Element, failure and cancellation behave as
  /// in ``value(for:load:)``.
  @inlinable package func datedValue(
    for key: Key, load: @escaping @Sendable () async throws -> (value: Value, obtainedAt: C.Instant)
  ) async throws -> CacheAnswer<Value> {
    try await lookUp(
      key,
      load: {
        let loaded = try await load()
        return (loaded.value, loaded.obtainedAt)
      })
  }

  /// The value for `key` when it can be had without suspending: a hit (origin `cached`), or,
  /// when no load for `key` is in flight, `load` run at once on this thread (origin `loaded`;
  /// stored as a load's value is, dated by the instant `load` returns, or nil for "now").
  ///
  /// Returns nil, changing nothing, on a miss while a load for `key` is in flight (join it with
  /// ``value(for:load:)``). While `load` runs, callers of the async forms for `key` join it as
  /// they would any load. Never cancelled: `load` must not wait. `load` does not escape: a
  /// caller's closure costs no allocation, which a search paid per category even on a hit.
  @inlinable package func immediateValue(
    for key: Key, load: () -> (value: Value, obtainedAt: C.Instant?)
  ) -> CacheAnswer<Value>? {
    let now = clock.now
    let step = state.withLock { state -> (hit: Value?, flight: UInt64?) in
      if let value = state.hit(for: key, now: now) { return (value, nil) }
      // A load in flight is joined the awaited way, by the caller: nothing is added to it here.
      let flight = state.joinOrStartFlight(for: key) { _ in nil }
      return (nil, flight.started ? flight.id : nil)
    }
    if let hit = step.hit { return CacheAnswer(value: hit, origin: .cached) }
    guard let id = step.flight else { return nil }
    let loaded = load()
    finish(id, for: key, with: .success((loaded.value, loaded.obtainedAt)))
    return CacheAnswer(value: loaded.value, origin: .loaded)
  }

  /// The value for `key` if it is stored and fresh (origin `cached`), else nil, changing
  /// nothing: ``immediateValue(for:load:)`` for a caller that cannot load at once.
  @inlinable package func immediateValue(for key: Key) -> CacheAnswer<Value>? {
    let now = clock.now
    guard let hit = state.withLock({ $0.hit(for: key, now: now) }) else { return nil }
    return CacheAnswer(value: hit, origin: .cached)
  }

  /// The value for `key` as ``datedValue(for:load:)`` gives it, delivered to `answer` instead of
  /// awaited, so that one task can wait for several keys in one suspension.
  ///
  /// - **Element**: a hit calls `answer` with origin `cached` before this returns, on this
  ///   thread; otherwise the request joins the load in flight (`joined`) or starts one that runs
  ///   `load` in a task (`loaded`), and `answer` is called on the thread that finishes it. `load`
  ///   gets that task's ``CacheLoad``, so that a time limit inside it can stop the whole load.
  /// - **Failure**: `answer` gets the load's error (nothing is stored).
  /// - **Cancellation**: ``CacheRequest/cancel()`` leaves the load at once, as a cancelled
  ///   awaiting caller does (`answer` gets `CancellationError` on the cancelling thread; the load
  ///   is cancelled when nobody else waits). The request is not tied to a task: the caller's
  ///   task being cancelled does nothing by itself.
  ///
  /// `answer` is called exactly once.
  @inlinable package func request(
    _ key: Key, load: @escaping @Sendable (CacheLoad) async throws -> (value: Value, obtainedAt: C.Instant),
    answer: @escaping @Sendable (Result<CacheAnswer<Value>, any Error>) -> Void
  ) -> CacheRequest {
    let now = clock.now
    let (step, waiter) = state.withLock { state -> (LookUpStep, LoadWaiter<Value>?) in
      var made: LoadWaiter<Value>?
      let step = state.register(key, now: now, cancelled: false) { origin in
        let waiter = LoadWaiter<Value> { answer($0.map { CacheAnswer(value: $0, origin: origin) }) }
        made = waiter
        return waiter
      }
      return (step, made)
    }
    let flight: UInt64
    switch step {
    case .hit(let value):
      answer(.success(CacheAnswer(value: value, origin: .cached)))
      return .answered
    case .cancelled:
      // Not reached (a request is not tied to a task, so it is registered as not cancelled);
      // answered all the same, so that `answer` is called exactly once whatever happens.
      answer(.failure(CancellationError()))
      return .answered
    case .joined(let id):
      flight = id
    case .started(let id):
      flight = id
      startLoad(
        id, for: key,
        load: { handle in
          let loaded = try await load(handle)
          return (loaded.value, loaded.obtainedAt)
        })
    }
    guard let waiter else { return .answered }
    return CacheRequest { [self] in
      if waiter.cancelCallback() { leave(flight, for: key, waiter: waiter) }
    }
  }

  /// The one lookup behind both async entry points; a nil instant means "when the load finished".
  @inlinable func lookUp(
    _ key: Key, load: @escaping @Sendable () async throws -> (Value, C.Instant?)
  ) async throws -> CacheAnswer<Value> {
    let now = clock.now
    let cancelled = Task.isCancelled
    let waiter = LoadWaiter<Value>()
    let step = state.withLock { $0.register(key, now: now, cancelled: cancelled) { _ in waiter } }
    let flightID: UInt64
    let origin: CacheOrigin
    switch step {
    case .hit(let value): return CacheAnswer(value: value, origin: .cached)
    case .cancelled: throw CancellationError()
    case .joined(let id):
      flightID = id
      origin = .joined
    case .started(let id):
      flightID = id
      origin = .loaded
      startLoad(id, for: key, load: { _ in try await load() })
    }
    do {
      return CacheAnswer(value: try await waiter.wait(), origin: origin)
    } catch {
      if waiter.wasCancelled { leave(flightID, for: key, waiter: waiter) }
      throw error
    }
  }

  /// The stored values for every key in `keys`, in order, when each is stored and unexpired;
  /// nil, changing nothing, when any is not.
  ///
  /// Useful when an answer needs several keys: when all are hits, the caller can skip the
  /// concurrency a load would need (tasks, timers). Each hit counts and marks its entry used,
  /// as ``value(for:load:)`` would.
  @inlinable package func storedValues(for keys: [Key]) -> [Value]? {
    let now = clock.now
    return state.withLock { state in
      var slots: [Int] = []
      slots.reserveCapacity(keys.count)
      for key in keys {
        guard let slot = state.entries.slot(of: key), !state.hasExpired(at: slot, now: now) else { return nil }
        slots.append(slot)
      }
      state.counters.hits += slots.count
      return slots.map { slot in
        state.entries.markUsed(slot)
        return state.entries.element(at: slot).value
      }
    }
  }

  /// Removes every stored entry. Loads in flight still answer their waiters, but their results
  /// are not stored: they may predate whatever made the caller clear the cache.
  public func removeAll() {
    state.withLock { state in
      state.entries.removeAll()
      for key in state.flights.keys { state.flights[key]?.storesResult = false }
    }
  }

  /// Stored keys from the most to the least recently used (for tests; O(count)).
  package var keysByRecency: [Key] { state.withLock { $0.entries.keysByRecency } }

  /// The value stored for `key`, expired or not, without marking it used; nil when none is.
  ///
  /// Useful as a fallback when a reload fails: an answer past its time to live beats none when
  /// the source is offline. Never stores anything.
  public func staleValue(for key: Key) -> Value? {
    state.withLock { state in state.entries.slot(of: key).map { state.entries.element(at: $0).value } }
  }

  @inlinable func startLoad(
    _ id: UInt64, for key: Key, load: @escaping @Sendable (CacheLoad) async throws -> (Value, C.Instant?)
  ) {
    let task = CacheLoad.start { handle in
      let result: Result<(Value, C.Instant?), any Error>
      do {
        result = .success(try await load(handle))
      } catch {
        result = .failure(error)
      }
      self.finish(id, for: key, with: result)
    }
    let abandoned = state.withLock { state -> Bool in
      guard state.flights[key]?.id == id else { return true }
      state.flights[key]?.task = task
      return false
    }
    // Every waiter left while the task was being created (or it already finished): stop it.
    if abandoned { task.cancel() }
  }

  /// A load finished: store its value (unless abandoned or cleared) and answer its waiters.
  @inlinable func finish(_ id: UInt64, for key: Key, with result: Result<(Value, C.Instant?), any Error>) {
    let now = clock.now
    let waiters = state.withLock { $0.finish(id, for: key, with: result, now: now, timeToLive: timeToLive) }
    let answer = result.map { $0.0 }
    for waiter in waiters { waiter.answer(with: answer) }
  }

  /// A cancelled caller left: forget it, and cancel the load when nobody waits for it any more.
  @inlinable func leave(_ id: UInt64, for key: Key, waiter: LoadWaiter<Value>) {
    let abandoned = state.withLock { state -> Task<Void, Never>?? in
      guard var flight = state.flights[key], flight.id == id else { return nil }
      flight.waiters.removeAll { $0 === waiter }
      if flight.waiters.isEmpty {
        state.flights[key] = nil
        return .some(flight.task)
      }
      state.flights[key] = flight
      return nil
    }
    abandoned??.cancel()
  }
}
