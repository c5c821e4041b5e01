// Where a category's answer comes from: the memory cache when it can, else the disk tier, else the
// source, behind the rate limiter. Coalesces concurrent requests for the same answer, across
// sessions. Composed of tiers that each do one job: the cache (AsyncCache: entries, expiry, loads
// in flight), the shared store (SharedTier), the requester (SourceRequester: permits, retries,
// timeout, counting) and the offline fallback (StaleFallback).
import Streams

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
///   when the source fails, and the rate budget is shared with every process using it
///   (``SourceRequester``).
final class SearchRepository<C: Clock>: Sendable where C.Duration == Duration {
  /// What a cache entry answers: one category, or all of them in one request.
  typealias Scope = SearchScope
  /// What the cache keeps an answer under.
  typealias Key = SearchKey
  /// What the memory cache holds.
  typealias Loaded = LoadedAnswer
  /// An answer and how it was obtained.
  typealias Answer = RepositoryAnswer
  /// Told, at once, that a request of this search must wait about this long for the rate budget.
  typealias RateWaitReport = SourceRequester<C>.RateWaitReport

  private let configuration: PipelineConfiguration
  private let observers: Observers
  private let cache: AsyncCache<Key, Loaded, C>?
  private let shared: SharedTier?
  private let requester: SourceRequester<C>
  private let stale: StaleFallback<C>
  private let clock: C
  /// The settings' part of every key's hash, hashed once.
  private let keySettingsHash: Int

  init(source: any SearchSource, configuration: PipelineConfiguration, clock: C) {
    keySettingsHash = Key.settingsHash(limit: configuration.limit, country: configuration.country, source: source.name)
    self.configuration = configuration
    observers = Observers(configuration.observers)
    self.clock = clock
    let cache =
      configuration.cacheCapacity > 0
      ? AsyncCache<Key, Loaded, C>(
        capacity: configuration.cacheCapacity, timeToLive: configuration.cacheTimeToLive, clock: clock)
      : nil
    let shared = configuration.store.map { SharedTier(store: $0, source: source.name, configuration: configuration) }
    self.cache = cache
    self.shared = shared
    requester = SourceRequester(source: source, configuration: configuration, budget: shared?.budget, clock: clock)
    stale = StaleFallback(cache: cache, shared: shared, log: configuration.log)
  }

  /// The source the answers come from.
  var source: any SearchSource { requester.source }

  /// Requests sent to the source so far.
  var requests: Int { requester.requests }

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
        let items = try await requester.fetch(term: term, scope: scope, onRateWait: onRateWait, load: handle)
        return (fetched(items, for: key, term: term, scope: scope), clock.now)
      } catch let error as SearchError {
        throw await stale.failure(error, key: key)
      }
    }
    guard let cache else {
      // No cache to hold the load: it runs in a task of its own, as the cache's would.
      let task = CacheLoad.run(load) { [self] result in
        completion(concluded(result.map { CacheAnswer(value: $0.value, origin: .loaded) }, key, term, scope))
      }
      return CacheRequest(stop: { task.cancel() })
    }
    return cache.request(key, load: load) { [self] result in completion(concluded(result, key, term, scope)) }
  }

  /// What a search gets from the cache's (or a lone load's) `result`: the answer, logged as a
  /// hit or a join; or, when the source failed, the offline fallback.
  private func concluded(
    _ result: Result<CacheAnswer<Loaded>, any Error>, _ key: Key, _ term: SearchTerm, _ scope: Scope
  ) -> Result<Answer, any Error> {
    switch result {
    case .success(let answer):
      if answer.origin == .joined { configuration.log?(.joined(term: term.text, category: scope.name)) }
      return .success(answered(answer, term: term, scope: scope))
    case .failure(let error):
      return stale.answer(after: error, key: key, term: term, scope: scope)
    }
  }

  /// The answer for `term` in `scope` when it can be had without waiting: a fresh cache hit, or
  /// the source's own when it answers at once (an in-memory catalog with no latency) and neither
  /// a permit nor a store is involved. Nil, having done nothing, when the answer must be awaited
  /// with ``startAnswer(for:scope:onRateWait:completion:)`` (a request, a permit, a store's read,
  /// a load in flight). `searching` are all the categories of the search this answer is part of
  /// (`scope`'s among them): a source may share work between them.
  ///
  /// The fused path: a search whose every category is answered here needs no task, no task
  /// group and no timeout. The request it sends is the requester's, counted and logged as any.
  func answerAtOnce(for term: SearchTerm, scope: Scope, searching: [Category]) -> Answer? {
    let key = key(for: term, scope: scope)
    guard shared == nil, scope.firstCategory != nil, requester.answersAtOnce else {
      return cache?.immediateValue(for: key).map { answered($0, term: term, scope: scope) }
    }
    // Not a closure kept for later: one that escaped was allocated for every category of every
    // search, hit or not.
    func load() -> (value: Loaded, obtainedAt: C.Instant?) {
      let items = requester.answerAtOnce(term: term, scope: scope, searching: searching) ?? [:]
      return (fetched(items, for: key, term: term, scope: scope), clock.now)
    }
    guard let cache else {
      return answered(CacheAnswer(value: load().value, origin: .loaded), term: term, scope: scope)
    }
    return cache.immediateValue(for: key, load: load).map { answered($0, term: term, scope: scope) }
  }

  /// A repository's answer from the cache's, logged and observed when it was a hit.
  private func answered(_ answer: CacheAnswer<Loaded>, term: SearchTerm, scope: Scope) -> Answer {
    if answer.origin == .cached {
      observers.tell { .cacheHit(term: term.text, category: scope.name) }
      configuration.log?(.cacheHit(term: term.text, category: scope.name))
    }
    return Answer(items: answer.value.items, origin: answer.origin, fromDisk: answer.value.fromDisk)
  }

  /// A fresh answer from the shared store, dated when it was fetched; nil without one.
  private func storedAnswer(
    for key: Key, term: SearchTerm, scope: Scope
  ) async -> (value: Loaded, obtainedAt: C.Instant)? {
    guard let shared, let stored = await shared.freshAnswer(for: key.storeKey) else { return nil }
    configuration.log?(.diskHit(term: term.text, category: scope.name))
    // Dated, so that the memory cache's time to live counts from when the answer was fetched: a
    // stored answer 50 minutes old with a one-hour time to live expires in memory 10 minutes on.
    // The age is measured on the wall clock (the stamp's clock), the instant on this run's.
    return (Loaded(items: stored.items, fromDisk: true), clock.now.advanced(by: .zero - stored.age))
  }

  /// What the source answered, handed to the shared store (if any).
  private func fetched(_ items: [Category: [SearchItem]], for key: Key, term: SearchTerm, scope: Scope) -> Loaded {
    if let shared {
      shared.save(items, for: key.storeKey)
      configuration.log?(.stored(term: term.text, category: scope.name))
    }
    return Loaded(items: items)
  }

  func key(for term: SearchTerm, scope: Scope) -> Key {
    Key(
      termKey: term.key, scope: scope, limit: configuration.limit, country: configuration.country,
      source: requester.sourceName, settingsHash: keySettingsHash)
  }
}
