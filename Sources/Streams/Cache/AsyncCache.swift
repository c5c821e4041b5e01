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
  @usableFromInline typealias Machine = AsyncCacheStateMachine<Key, Value, C.Instant>

  @usableFromInline let state: Mutex<Machine>
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
    state = Mutex(Machine(capacity: capacity, timeToLive: timeToLive))
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
    let now = clock.now
    let cancelled = Task.isCancelled
    let waiter = LoadWaiter<Value>()
    let action = state.withLock { $0.lookUp(key, now: now, cancelled: cancelled) { _ in waiter } }
    let flight: UInt64
    let origin: CacheOrigin
    switch action {
    case .hit(let value): return CacheAnswer(value: value, origin: .cached)
    case .cancelled: throw CancellationError()
    case .joined(let id):
      (flight, origin) = (id, .joined)
    case .start(let id):
      (flight, origin) = (id, .loaded)
      startLoad(id, for: key, load: { _ in (try await load(), nil) })
    }
    do {
      return CacheAnswer(value: try await waiter.wait(), origin: origin)
    } catch {
      if waiter.wasCancelled { leave(flight, for: key, waiter: waiter) }
      throw error
    }
  }

  /// The value for `key` when it can be had without suspending: a hit (origin `cached`), or,
  /// when no load for `key` is in flight, `load` run at once on this thread (origin `loaded`).
  /// The value `load` gives is stored as a load's is, its time to live counted from the instant
  /// `load` gives with it (nil: now; one after now counts as now): a value another tier kept 50
  /// minutes, with a time to live of an hour, expires here 10 minutes later.
  ///
  /// Returns nil, changing nothing, on a miss while a load for `key` is in flight (join it with
  /// ``value(for:load:)``). While `load` runs, callers of the other forms for `key` join it as
  /// they would any load. Never cancelled: `load` must not wait. `load` does not escape: a
  /// caller's closure costs no allocation, which a search paid per category even on a hit.
  @inlinable package func immediateValue(
    for key: Key, load: () -> (value: Value, obtainedAt: C.Instant?)
  ) -> CacheAnswer<Value>? {
    let now = clock.now
    switch state.withLock({ $0.lookUpAtOnce(key, now: now) }) {
    case .hit(let value):
      return CacheAnswer(value: value, origin: .cached)
    case .inFlight:
      return nil
    case .start(let id):
      let loaded = load()
      finish(id, for: key, with: .success((loaded.value, loaded.obtainedAt)))
      return CacheAnswer(value: loaded.value, origin: .loaded)
    }
  }

  /// The value for `key` if it is stored and fresh (origin `cached`), else nil, changing
  /// nothing: ``immediateValue(for:load:)`` for a caller that cannot load at once.
  @inlinable package func immediateValue(for key: Key) -> CacheAnswer<Value>? {
    let now = clock.now
    guard let hit = state.withLock({ $0.hit(for: key, now: now) }) else { return nil }
    return CacheAnswer(value: hit, origin: .cached)
  }

  /// The value for `key` as ``value(for:load:)`` gives it, delivered to `answer` instead of
  /// awaited, so that one task can wait for several keys in one suspension; the load dates its
  /// value as ``immediateValue(for:load:)``'s does.
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
    let (action, waiter) = state.withLock { state -> (Machine.LookUpAction, LoadWaiter<Value>?) in
      var made: LoadWaiter<Value>?
      let action = state.lookUp(key, now: now, cancelled: false) { origin in
        let waiter = LoadWaiter<Value> { answer($0.map { CacheAnswer(value: $0, origin: origin) }) }
        made = waiter
        return waiter
      }
      return (action, made)
    }
    let flight: UInt64
    switch action {
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
    case .start(let id):
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

  /// Removes every stored entry. Loads in flight still answer their waiters, but their results
  /// are not stored: they may predate whatever made the caller clear the cache.
  public func removeAll() {
    state.withLock { $0.removeAll() }
  }

  /// The value stored for `key`, expired or not, without marking it used; nil when none is.
  ///
  /// Useful as a fallback when a reload fails: an answer past its time to live beats none when
  /// the source is offline. Never stores anything.
  public func staleValue(for key: Key) -> Value? {
    state.withLock { $0.entries.stale(for: key) }
  }

  /// Runs load `id` in a task of its own, which finishes it.
  @inlinable func startLoad(
    _ id: UInt64, for key: Key, load: @escaping @Sendable (CacheLoad) async throws -> (Value, C.Instant?)
  ) {
    let task = CacheLoad.run(load) { self.finish(id, for: key, with: $0) }
    // Every waiter left while the task was being created (or it already finished): stop it.
    if state.withLock({ $0.attach(task, to: id, for: key) }) == .cancel { task.cancel() }
  }

  /// A load finished: store its value (unless abandoned or cleared) and answer its waiters.
  @inlinable func finish(_ id: UInt64, for key: Key, with result: Result<(Value, C.Instant?), any Error>) {
    let now = clock.now
    let waiters = state.withLock { $0.finish(id, for: key, with: result, now: now) }
    let answer = result.map { $0.0 }
    for waiter in waiters { waiter.answer(with: answer) }
  }

  /// A cancelled caller left: forget it, and cancel the load when nobody waits for it any more.
  @inlinable func leave(_ id: UInt64, for key: Key, waiter: LoadWaiter<Value>) {
    guard case .cancelLoad(let task) = state.withLock({ $0.leave(id, for: key, waiter: waiter) }) else { return }
    task?.cancel()
  }
}
