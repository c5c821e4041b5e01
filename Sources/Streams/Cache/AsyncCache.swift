// A bounded, expiring, coalescing cache of async loads: the typeahead's answer to "the same
// query again" (answer from memory) and "the same query, still loading" (wait for that load).

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
///   hit strictly before `t + timeToLive` and a miss from `t + timeToLive` on. A load that got
///   its value from a slower tier that kept it (``datedValue(for:load:)``) names the instant the
///   value was first obtained instead, so keeping it elsewhere never makes it live longer. An expired entry
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
/// The lookup, store and coalescing paths are @inlinable (their state @usableFromInline rather
/// than private) so that a cache whose key and value are another module's types is specialised
/// there: unspecialised, a hit spent most of its time in generic-metadata lookups. The actor is
/// `final` because actors, like classes, dispatch their methods through a vtable otherwise, and a
/// vtable call reaches the unspecialised body whatever the caller knows.
public final actor AsyncCache<Key: Hashable & Sendable, Value: Sendable, C: Clock> where C.Duration == Duration {
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
    @usableFromInline let task: Task<Void, Never>
    @usableFromInline var waiters: [LoadWaiter<Value>]
    /// False after ``removeAll()``: the result still answers the waiters but is not stored.
    @usableFromInline var storesResult = true

    @inlinable init(id: UInt64, task: Task<Void, Never>, waiters: [LoadWaiter<Value>]) {
      self.id = id
      self.task = task
      self.waiters = waiters
    }
  }

  @usableFromInline var entries: LRUList<Key, Entry>
  @usableFromInline var flights: [Key: Flight] = [:]
  @usableFromInline var lastFlightID: UInt64 = 0
  @usableFromInline let timeToLive: Duration?
  @usableFromInline let clock: C
  @usableFromInline var counters = CacheStatistics()

  /// Counters of hits, loads, joins, evictions and expirations since the cache was created.
  public var statistics: CacheStatistics { counters }

  /// Creates an empty cache.
  ///
  /// - Parameters:
  ///   - capacity: the most entries stored. 0 (or less) stores nothing but still coalesces
  ///     concurrent loads of the same key.
  ///   - timeToLive: how long an entry stays a hit after its load finished, on `clock`; nil
  ///     keeps entries until they are evicted. Zero (or less) makes every entry expire at once.
  ///   - clock: the clock that tells when entries expire.
  public init(capacity: Int, timeToLive: Duration? = nil, clock: C) {
    entries = LRUList(capacity: capacity)
    self.timeToLive = timeToLive
    self.clock = clock
  }

  /// How many entries are stored, expired ones included (they stay until replaced or evicted).
  public var count: Int { entries.count }

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
  @inlinable public func datedValue(
    for key: Key, load: @escaping @Sendable () async throws -> (value: Value, obtainedAt: C.Instant)
  ) async throws -> CacheAnswer<Value> {
    try await lookUp(key, load: {
      let loaded = try await load()
      return (loaded.value, loaded.obtainedAt)
    })
  }

  /// The one lookup behind both entry points; a nil instant means "when the load finished".
  @inlinable func lookUp(
    _ key: Key, load: @escaping @Sendable () async throws -> (Value, C.Instant?)
  ) async throws -> CacheAnswer<Value> {
    if let value = storedValue(for: key) {
      counters.hits += 1
      return CacheAnswer(value: value, origin: .cached)
    }
    try Task.checkCancellation()
    let waiter = LoadWaiter<Value>()
    let origin: CacheOrigin
    let flightID: UInt64
    if var flight = flights[key] {
      flight.waiters.append(waiter)
      flights[key] = flight
      flightID = flight.id
      origin = .joined
      counters.joins += 1
    } else {
      flightID = startLoad(for: key, load: load, firstWaiter: waiter)
      origin = .loaded
      counters.loads += 1
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
  /// concurrency a load would need (tasks, timers) and ask the actor once. Each hit counts and
  /// marks its entry used, as ``value(for:load:)`` would.
  @inlinable public func storedValues(for keys: [Key]) -> [Value]? {
    var slots: [Int] = []
    slots.reserveCapacity(keys.count)
    for key in keys {
      guard let slot = entries.slot(of: key), !hasExpired(at: slot) else { return nil }
      slots.append(slot)
    }
    counters.hits += slots.count
    return slots.map { slot in
      entries.markUsed(slot)
      return entries.element(at: slot).value
    }
  }

  /// Removes every stored entry. Loads in flight still answer their waiters, but their results
  /// are not stored: they may predate whatever made the caller clear the cache.
  public func removeAll() {
    entries.removeAll()
    for key in flights.keys { flights[key]?.storesResult = false }
  }

  /// Stored keys from the most to the least recently used (for tests; O(count)).
  public var keysByRecency: [Key] { entries.keysByRecency }

  /// The stored value for `key` if it has not expired, marking it used. An expired entry is a
  /// miss but is kept (until a successful load replaces it, or it is evicted), so that
  /// ``staleValue(for:)`` can still offer it when the reload fails.
  @inlinable func storedValue(for key: Key) -> Value? {
    guard let slot = entries.slot(of: key) else { return nil }
    if hasExpired(at: slot) {
      counters.expirations += 1
      return nil
    }
    entries.markUsed(slot)
    return entries.element(at: slot).value
  }

  /// Whether the entry at `slot` is a miss now: from its expiry instant on (inclusive).
  @inlinable func hasExpired(at slot: Int) -> Bool {
    guard let expiry = entries.element(at: slot).expiry else { return false }
    return clock.now >= expiry
  }

  /// The value stored for `key`, expired or not, without marking it used; nil when none is.
  ///
  /// Useful as a fallback when a reload fails: an answer past its time to live beats none when
  /// the source is offline. Never stores anything.
  public func staleValue(for key: Key) -> Value? {
    entries.slot(of: key).map { entries.element(at: $0).value }
  }

  @inlinable func startLoad(
    for key: Key, load: @escaping @Sendable () async throws -> (Value, C.Instant?), firstWaiter: LoadWaiter<Value>
  ) -> UInt64 {
    lastFlightID &+= 1
    let id = lastFlightID
    // The task reports back to the actor; the actor is held until the caller has registered
    // as a waiter, so the result cannot arrive before someone waits for it.
    let task = Task(inheritingExecutor: {
      let result: Result<(Value, C.Instant?), any Error>
      do {
        result = .success(try await load())
      } catch {
        result = .failure(error)
      }
      await self.finish(id, for: key, with: result)
    })
    flights[key] = Flight(id: id, task: task, waiters: [firstWaiter])
    return id
  }

  /// A load finished: store its value (unless abandoned or cleared) and answer its waiters.
  @inlinable func finish(_ id: UInt64, for key: Key, with result: Result<(Value, C.Instant?), any Error>) {
    // Abandoned by all its waiters (and maybe replaced by a newer load): drop the result.
    guard let flight = flights[key], flight.id == id else { return }
    flights[key] = nil
    if case .success(let (value, obtainedAt)) = result, flight.storesResult {
      let now = clock.now
      // Never later than now: a value cannot live longer for having been obtained "later".
      let start = obtainedAt.map { min($0, now) } ?? now
      let expiry = timeToLive.map { start.advanced(by: $0) }
      if entries.insert(Entry(value: value, expiry: expiry), for: key) != nil {
        counters.evictions += 1
      }
    }
    let answer = result.map { $0.0 }
    for waiter in flight.waiters { waiter.answer(with: answer) }
  }

  /// A cancelled caller left: forget it, and cancel the load when nobody waits for it any more.
  @inlinable func leave(_ id: UInt64, for key: Key, waiter: LoadWaiter<Value>) {
    guard var flight = flights[key], flight.id == id else { return }
    flight.waiters.removeAll { $0 === waiter }
    if flight.waiters.isEmpty {
      flights[key] = nil
      flight.task.cancel()
    } else {
      flights[key] = flight
    }
  }
}
