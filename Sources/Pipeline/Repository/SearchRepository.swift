// Where a category's answer comes from: the memory cache when it can, else the disk tier, else the
// source, behind the rate limiter. Coalesces concurrent requests for the same answer, across sessions.
import Streams
import Synchronization

/// What a cache entry answers: one category, or all of them in one request. Not nested in the
/// generic repository: a type nested there is generic too, and the compiler copied and destroyed
/// it through its metadata's value witnesses instead of inline, several times per search.
enum SearchScope: Hashable, Sendable {
  case category(Category)
  case all([Category])
}

/// What the cache keeps an answer under (a repository's key; not nested in it, as `SearchScope`).
struct SearchKey: Hashable, Sendable {
  let termKey: String
  let scope: SearchScope
  let limit: Int
  let country: String
  let source: String
  /// Hashed once: a key is looked up, stored and removed in several tables per search (the
  /// entries, the loads in flight, the recency list), and hashing its strings each time was a
  /// tenth of a replay's instructions.
  private let hash: Int

  /// A key whose `limit`, `country` and `source` are hashed in `settingsHash` (from
  /// ``settingsHash(limit:country:source:)``): they are the same for every key of a repository,
  /// and hashing their strings for each of a search's categories cost more than the lookup.
  init(termKey: String, scope: SearchScope, limit: Int, country: String, source: String, settingsHash: Int) {
    self.termKey = termKey
    self.scope = scope
    self.limit = limit
    self.country = country
    self.source = source
    var hasher = Hasher()
    hasher.combine(termKey)
    switch scope {
    case .category(let category):
      hasher.combine(category.ordinal)
    case .all(let categories):
      hasher.combine(-1)
      for category in categories { hasher.combine(category.ordinal) }
    }
    hasher.combine(settingsHash)
    hash = hasher.finalize()
  }

  /// The part of every key's hash that a repository's settings give.
  static func settingsHash(limit: Int, country: String, source: String) -> Int {
    var hasher = Hasher()
    hasher.combine(limit)
    hasher.combine(country)
    hasher.combine(source)
    return hasher.finalize()
  }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  static func == (lhs: SearchKey, rhs: SearchKey) -> Bool {
    lhs.hash == rhs.hash && lhs.termKey == rhs.termKey && lhs.scope == rhs.scope && lhs.limit == rhs.limit
      && lhs.country == rhs.country && lhs.source == rhs.source
  }
}

/// What a repository's memory cache holds: the items, and whether the disk rather than the source
/// gave them. Not nested in the generic repository, as `SearchScope`.
struct LoadedAnswer: Sendable {
  var items: [Category: [SearchItem]]
  var fromDisk = false
}

/// A repository's answer and how it was obtained. Not nested in the generic repository, as
/// `SearchScope`.
struct RepositoryAnswer: Sendable {
  var items: [Category: [SearchItem]]
  var origin: CacheOrigin
  /// An expired cached answer, served because the reload failed.
  var isStale = false
  /// Loaded from the disk tier rather than the source.
  var fromDisk = false
}

/// Answers (term, category) requests from a shared cache or the source.
///
/// - The cache key is (term key, scope, limit, country, source name): "Taylor" and "taylor"
///   share an answer; changing the limit or the source does not reuse it.
/// - Concurrent searches for the same key share one request (``CacheOrigin/joined``); the
///   request is cancelled when the last of them is cancelled.
/// - Failures, rate limiting included, are never cached.
/// - The rate limiter is passed only by requests that reach the source: hits and joins are free.
/// - With a store (``PipelineConfiguration/store``), a memory miss asks the store before the
///   source, a fetched answer is handed to the store, an expired stored answer is the fallback
///   when the source fails, and the rate budget is shared with every process using it: each
///   request holds its permits, the process's and the shared one, from its grant until its end
///   (``RateRule``).
/// - The timeout (`searchTimeout`) starts when a request is sent, after its permit, and covers its
///   retries and their backoffs: waiting for the rate budget is never timed out. When the
///   deadline comes during a backoff, the last failure is reported, not a timeout.
final class SearchRepository<C: Clock>: Sendable where C.Duration == Duration {
  /// What a cache entry answers: one category, or all of them in one request.
  typealias Scope = SearchScope
  /// What the cache keeps an answer under.
  typealias Key = SearchKey

  /// What the memory cache holds.
  typealias Loaded = LoadedAnswer
  /// An answer and how it was obtained.
  typealias Answer = RepositoryAnswer

  let source: any SearchSource
  private let configuration: PipelineConfiguration
  private let observers: Observers
  private let cache: AsyncCache<Key, Loaded, C>?
  private let limiter: (any RatePermits<C.Instant>)?
  private let shared: SharedTier?
  private let clock: C
  private let requestCount = Mutex(0)
  /// The source as one that can answer at once, cast once here: cast per search, the dynamic
  /// cast cost a replay more than the cache lookup it precedes.
  private let atOnceSource: (any AtOnceSearchSource)?
  /// The source's name and the settings' part of every key's hash, read and hashed once.
  private let sourceName: String
  private let keySettingsHash: Int
  /// Whether the source is remote, read once: its requests are logged as network traffic.
  private let sourceIsRemote: Bool

  init(source: any SearchSource, configuration: PipelineConfiguration, clock: C) {
    self.source = source
    atOnceSource = source as? any AtOnceSearchSource
    sourceName = source.name
    sourceIsRemote = source.isRemote
    keySettingsHash = Key.settingsHash(limit: configuration.limit, country: configuration.country, source: source.name)
    self.configuration = configuration
    observers = Observers(configuration.observers)
    self.clock = clock
    cache =
      configuration.cacheCapacity > 0
      ? AsyncCache(capacity: configuration.cacheCapacity, timeToLive: configuration.cacheTimeToLive, clock: clock)
      : nil
    limiter = configuration.rateLimit.map { RateLimiter(permits: $0.permits, per: $0.window, clock: clock) }
    shared = configuration.store.map { SharedTier(store: $0, source: source.name, configuration: configuration) }
  }

  /// Requests sent to the source so far.
  var requests: Int { requestCount.withLock { $0 } }

  /// Categories answered from the cache so far: the cache's own count of hits.
  var cacheHits: Int { cache?.statistics.hits ?? 0 }

  /// The shared store's part of the summary: whether it was on and how many answers it gave; nil
  /// without a store. Waits until the answers handed to the store are where others find them.
  var diskSummary: (status: DiskTierStatus, hits: Int)? {
    get async {
      guard let shared else { return nil }
      return (await shared.summaryStatus(), shared.hits)
    }
  }

  /// Told, at once, that a request of this search must wait about this long for the rate budget.
  typealias RateWaitReport = @Sendable (Duration) -> Void

  /// Asks for the answer for `term` in `scope` and hands it to `completion` when it comes, on
  /// the thread that finishes it (before this returns for a cache hit); `onRateWait` hears when
  /// a request it starts must wait for a permit (not when it joins another search's request).
  ///
  /// Delivered rather than awaited, so that a search waits for all its categories in one
  /// suspension, with no task per category.
  ///
  /// - `completion` gets the answer, a `SearchError` when the source failed (after the offline
  ///   fallback to a stale answer found none), or `CancellationError` when cancelled.
  /// - Cancelling the returned request leaves the load at once (the load goes on for other
  ///   searches, and is cancelled when none is left); without a cache it cancels the request's
  ///   own task, and `completion` follows when that task has stopped.
  func startAnswer(
    for term: SearchTerm, scope: Scope, onRateWait: RateWaitReport? = nil,
    completion: @escaping @Sendable (Result<Answer, any Error>) -> Void
  ) -> CacheRequest {
    let key = key(for: term, scope: scope)
    let load: @Sendable (CacheLoad) async throws -> (value: Loaded, obtainedAt: C.Instant) = { [self] handle in
      if let stored = await storedAnswer(for: key, term: term, scope: scope) { return stored }
      do {
        let items = try await fetch(term: term, scope: scope, onRateWait: onRateWait, load: handle)
        return fetched(items, for: key, term: term, scope: scope)
      } catch let error as SearchError {
        // The store's expired answer, read while the load can still wait for it; memory's own
        // expired answer, if any, is preferred when the failure is concluded.
        guard let shared, let stale = await shared.anyAnswer(for: key.storeKey) else { throw error }
        throw FailureWithStoredAnswer(error: error, stored: stale)
      }
    }
    guard let cache else {
      // No cache to hold the load: it runs in a task of its own, as the cache's would.
      let task = CacheLoad.start { [self] handle in
        let result: Result<CacheAnswer<Loaded>, any Error>
        do {
          result = .success(CacheAnswer(value: try await load(handle).value, origin: .loaded))
        } catch {
          result = .failure(error)
        }
        completion(concluded(result, key: key, term: term, scope: scope))
      }
      return CacheRequest(stop: { task.cancel() })
    }
    return cache.request(key, load: load) { [self] result in
      completion(concluded(result, key: key, term: term, scope: scope))
    }
  }

  /// What a search gets from the cache's (or a lone load's) `result`: the answer, logged as a
  /// hit or a join; or, when the source failed, the offline fallback, an answer past its time to
  /// live from memory, else from disk (an earlier run's), and the error only when there is none.
  private func concluded(
    _ result: Result<CacheAnswer<Loaded>, any Error>, key: Key, term: SearchTerm, scope: Scope
  ) -> Result<Answer, any Error> {
    switch result {
    case .success(let answer):
      switch answer.origin {
      case .cached: cacheHit(term: term, scope: scope)
      case .joined: log { .joined(term: term.text, category: scope.name) }
      case .loaded: break
      }
      return .success(Answer(items: answer.value.items, origin: answer.origin, fromDisk: answer.value.fromDisk))
    case .failure(let error as SearchError):
      return servedStale(failure: error, stored: nil, key: key, term: term, scope: scope)
    case .failure(let failure as FailureWithStoredAnswer):
      return servedStale(failure: failure.error, stored: failure.stored, key: key, term: term, scope: scope)
    case .failure(let error):
      return .failure(error)
    }
  }

  /// The offline fallback after `failure`: memory's expired answer, else the store's (`stored`,
  /// read by the failed load), else the failure.
  private func servedStale(
    failure: SearchError, stored: [Category: [SearchItem]]?, key: Key, term: SearchTerm, scope: Scope
  ) -> Result<Answer, any Error> {
    guard let stale = cache?.staleValue(for: key)?.items ?? stored else { return .failure(failure) }
    log { .servedStale(term: term.text, category: scope.name, error: failure) }
    return .success(Answer(items: stale, origin: .loaded, isStale: true))
  }

  /// The answer for `term` in `scope` when it can be had without waiting: a fresh cache hit, or
  /// the source's own when it answers at once (an in-memory catalog with no latency) and neither
  /// a permit nor a store is involved. Nil, having done nothing, when the answer must be awaited
  /// with ``startAnswer(for:scope:onRateWait:completion:)`` (a request, a permit, a store's read,
  /// a load in flight). `searching` are all the categories of the search this answer is part of
  /// (`scope`'s among them): a source may share work between them.
  ///
  /// The fused path: a search whose every category is answered here needs no task, no task
  /// group and no timeout. What it counts and logs is what the awaited path would.
  func answerAtOnce(for term: SearchTerm, scope: Scope, searching: [Category]) -> Answer? {
    let key = key(for: term, scope: scope)
    guard let source = atOnceSource, source.answersAtOnce, limiter == nil, shared == nil,
      let first = scope.firstCategory
    else {
      guard let answer = cache?.immediateValue(for: key) else { return nil }
      return hit(answer, term: term, scope: scope)
    }
    // Not a closure kept for later: one that escaped was allocated for every category of every
    // search, hit or not.
    func load() -> (value: Loaded, obtainedAt: C.Instant?) {
      countRequest(term: term, scope: scope)
      let items = source.answerAtOnce(request(term, first), categories: scope.categories, searching: searching)
      let loaded = fetched(items, for: key, term: term, scope: scope)
      return (loaded.value, loaded.obtainedAt)
    }
    guard let cache else {
      let loaded = load().value
      return Answer(items: loaded.items, origin: .loaded, fromDisk: loaded.fromDisk)
    }
    guard let answer = cache.immediateValue(for: key, load: load) else { return nil }
    return hit(answer, term: term, scope: scope)
  }

  /// The answer the cache gave at once, logged when it was a hit.
  private func hit(_ answer: CacheAnswer<Loaded>, term: SearchTerm, scope: Scope) -> Answer {
    if answer.origin == .cached { cacheHit(term: term, scope: scope) }
    return Answer(items: answer.value.items, origin: answer.origin, fromDisk: answer.value.fromDisk)
  }

  /// A fresh answer from the shared store, dated when it was fetched; nil without one.
  private func storedAnswer(
    for key: Key, term: SearchTerm, scope: Scope
  ) async -> (value: Loaded, obtainedAt: C.Instant)? {
    guard let shared, let stored = await shared.freshAnswer(for: key.storeKey) else { return nil }
    log { .diskHit(term: term.text, category: scope.name) }
    // Dated, so that the memory cache's time to live counts from when the answer was fetched: a
    // stored answer 50 minutes old with a one-hour time to live expires in memory 10 minutes on.
    // The age is measured on the wall clock (the stamp's clock), the instant on this run's.
    return (Loaded(items: stored.items, fromDisk: true), clock.now.advanced(by: .zero - stored.age))
  }

  /// What the source answered, handed to the shared store (if any) and dated now.
  private func fetched(
    _ items: [Category: [SearchItem]], for key: Key, term: SearchTerm, scope: Scope
  ) -> (value: Loaded, obtainedAt: C.Instant) {
    if let shared {
      shared.save(items, for: key.storeKey)
      log { .stored(term: term.text, category: scope.name) }
    }
    return (Loaded(items: items), clock.now)
  }

  /// Logs and observes a category answered from the memory cache.
  private func cacheHit(term: SearchTerm, scope: Scope) {
    observers.tell { .cacheHit(term: term.text, category: scope.name) }
    log { .cacheHit(term: term.text, category: scope.name) }
  }

  /// Counts, observes and logs one request sent to the source.
  private func countRequest(term: SearchTerm, scope: Scope) {
    requestCount.withLock { $0 += 1 }
    observers.tell { .requestSent(term: term.text, category: scope.name, source: sourceName, remote: sourceIsRemote) }
    log {
      sourceIsRemote
        ? .fetching(term: term.text, category: scope.name)
        : .searching(term: term.text, category: scope.name, source: sourceName)
    }
  }

  /// Logs a request that failed with `error`, as a remote or a local source's.
  private func logFailure(term: SearchTerm, scope: Scope, error: SearchError) {
    log {
      sourceIsRemote
        ? .failed(term: term.text, category: scope.name, error: error)
        : .localSearchFailed(term: term.text, category: scope.name, source: sourceName, error: error)
    }
  }

  func key(for term: SearchTerm, scope: Scope) -> Key {
    Key(
      termKey: term.key, scope: scope, limit: configuration.limit, country: configuration.country,
      source: sourceName, settingsHash: keySettingsHash)
  }

  /// The first permit (reported when it must wait), then the request and its retries, all
  /// within the timeout counted from the first send. Runs as `load`, the task of the cache's
  /// load (or of a load of its own), which the timeout cancels.
  private func fetch(
    term: SearchTerm, scope: Scope, onRateWait: RateWaitReport?, load: CacheLoad
  ) async throws -> [Category: [SearchItem]] {
    let first = try await takePermit(onRateWait: onRateWait)
    let deadline = configuration.searchTimeout.map { clock.now.advanced(by: $0) }
    guard let retry = configuration.retry else {
      return try await send(term: term, scope: scope, permit: first, by: deadline, cancelling: load)
    }
    var lastFailure: SearchError?
    return try await withRetry(retry, clock: clock, until: deadline, shouldRetry: Self.isTransient) {
      var permit = first
      if let lastFailure {
        // A retry waits for a permit like any request; if that took it past the deadline, the
        // failure that made it retry is the answer (and the permit goes back unused).
        permit = try await takePermit(onRateWait: nil)
        if let deadline, clock.now >= deadline {
          permit.finish(mayStillArrive: false)
          throw lastFailure
        }
      }
      do {
        return try await send(term: term, scope: scope, permit: permit, by: deadline, cancelling: load)
      } catch let error as SearchError {
        lastFailure = error
        throw error
      }
    }
  }

  /// A permit from the process's limiter, then from the budget shared through the store with
  /// every other process (none without a store, or with one that is off); both are held until
  /// the request is finished, by the same rule (``RateRule``). `onRateWait` hears each wait at
  /// once: the limiter's, then the shared budget's when that holds the request longer.
  private func takePermit(onRateWait: RateWaitReport?) async throws -> RequestPermit {
    let local = try await limiter?.acquireUntilFinished { [clock] expected in
      onRateWait?(clock.now.duration(to: expected))
    }
    do {
      return RequestPermit(local: local, shared: try await shared?.budget?.acquire(onWait: onRateWait))
    } catch {
      local?.finish(mayStillArrive: false)
      throw error
    }
  }

  /// One request, cut off at `deadline` (`timedOut`), its permits finished when it ends.
  /// It runs in the load's task, which has nothing else to do, and the timeout cancels that task
  /// (`withTimeout(…cancellingItsTaskThrough:)`): no task of its own per request.
  private func send(
    term: SearchTerm, scope: Scope, permit: RequestPermit?, by deadline: C.Instant?, cancelling load: CacheLoad
  ) async throws -> [Category: [SearchItem]] {
    do {
      let items = try await send(term: term, scope: scope, by: deadline, cancelling: load)
      permit?.finish(mayStillArrive: false)
      return items
    } catch {
      permit?.finish(mayStillArrive: Self.mayStillArrive(after: error))
      throw error
    }
  }

  private func send(
    term: SearchTerm, scope: Scope, by deadline: C.Instant?, cancelling load: CacheLoad
  ) async throws -> [Category: [SearchItem]] {
    guard let deadline else { return try await attempt(term: term, scope: scope) }
    do {
      return try await withTimeout(clock.now.duration(to: deadline), clock: clock, cancellingItsTaskThrough: load) {
        try await attempt(term: term, scope: scope)
      }
    } catch is TimeoutError {
      logFailure(term: term, scope: scope, error: .timedOut)
      throw SearchError.timedOut
    }
  }

  /// Whether a request that failed with `error` may still reach the server: it ended without an
  /// answer (cancelled, timed out, its connection lost or refused). A status, even an error's or
  /// a redirect's, is an answer: the server had the request.
  static func mayStillArrive(after error: any Error) -> Bool {
    switch error as? SearchError {
    case .rateLimited, .server, .badStatus, .decoding, .redirect: false
    case .offline, .timedOut, nil: true
    }
  }

  /// Failures worth another attempt: the server's (5xx) and a lost or refused connection.
  /// Rate limiting is not: trying again is exactly what the service asked us not to do.
  static func isTransient(_ error: any Error) -> Bool {
    switch error as? SearchError {
    case .server, .offline: true
    default: false
    }
  }

  private func attempt(term: SearchTerm, scope: Scope) async throws -> [Category: [SearchItem]] {
    countRequest(term: term, scope: scope)
    do {
      switch scope {
      case .category(let category):
        let request = request(term, category)
        return [category: try await ask { try await source.search(request) }]
      case .all(let categories):
        // CategoryFanOut asks for `.all` only of a multi-category source and never for no
        // category; should either happen, one request per category gives the same answer.
        guard let combined = source as? any MultiCategorySearchSource, let first = categories.first else {
          var answer: [Category: [SearchItem]] = [:]
          for (index, category) in categories.enumerated() {
            var permit: RequestPermit?
            if index > 0 {
              // Each further request is a request like any: a permit of its own, and counted.
              permit = try await takePermit(onRateWait: nil)
              requestCount.withLock { $0 += 1 }
            }
            let request = request(term, category)
            do {
              answer[category] = try await ask { try await source.search(request) }
              permit?.finish(mayStillArrive: false)
            } catch {
              permit?.finish(mayStillArrive: Self.mayStillArrive(after: error))
              throw error
            }
          }
          return answer
        }
        let request = request(term, first)
        return try await ask { try await combined.search(request, categories: categories) }
      }
    } catch let error as SearchError {
      logFailure(term: term, scope: scope, error: error)
      throw error
    }
  }

  /// Runs a call to the source. A source that does real I/O is waited for by a replay's runner,
  /// which must not move virtual time past it.
  private func ask<T: Sendable>(_ call: () async throws -> T) async throws -> T {
    source.performsRealIO ? try await withExternalWork(call) : try await call()
  }

  private func request(_ term: SearchTerm, _ category: Category) -> SearchRequest {
    SearchRequest(
      term: term.text, category: category, limit: configuration.limit, country: configuration.country,
      language: configuration.language, explicit: configuration.explicit)
  }

  private func log(_ message: () -> PipelineLogMessage) {
    configuration.log?(message())
  }
}

extension SearchScope {
  /// The category name for logs: "music", or "all" for a single request.
  var name: String {
    switch self {
    case .category(let category): category.rawValue
    case .all: "all"
    }
  }

  /// The first category the scope answers, if any (without building ``categories``: asked per
  /// category of every search).
  var firstCategory: Category? {
    switch self {
    case .category(let category): category
    case .all(let categories): categories.first
    }
  }

  /// The categories the scope answers, in order.
  var categories: [Category] {
    switch self {
    case .category(let category): [category]
    case .all(let categories): categories
    }
  }
}

/// A load's failure together with the store's expired answer for its key, read by the load for the
/// offline fallback (a store's read may wait, which concluding a result cannot).
struct FailureWithStoredAnswer: Error {
  let error: SearchError
  let stored: [Category: [SearchItem]]
}
