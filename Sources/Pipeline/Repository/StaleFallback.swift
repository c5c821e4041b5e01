// The tier of the answer path that answers when the source fails: an answer past its time to
// live beats none when the source is offline; memory's first, else the store's (an earlier run's).
import Streams

/// The offline fallback: after a failed load, memory's expired answer for the key, else the
/// store's, else the failure.
struct StaleFallback<C: Clock>: Sendable where C.Duration == Duration {
  /// The memory cache, whose expired entries stay until replaced or evicted; nil without one.
  let cache: AsyncCache<SearchKey, LoadedAnswer, C>?
  /// The shared store; nil without one.
  let shared: SharedTier?
  let log: (@Sendable (PipelineLogMessage) -> Void)?

  /// What a load that failed with `error` throws: the error, with the store's expired answer
  /// for `key` when there is one, read here while the load can still wait for it (concluding a
  /// result cannot).
  func failure(_ error: SearchError, key: SearchKey) async -> any Error {
    guard let shared, let stale = await shared.anyAnswer(for: key.storeKey) else { return error }
    return FailureWithStoredAnswer(error: error, stored: stale)
  }

  /// What a search gets for a load's `failure`: memory's expired answer, else the store's read
  /// by the load, logged as served stale; else the failure itself.
  func answer(after failure: any Error, key: SearchKey, term: SearchTerm, scope: SearchScope) -> Result<
    RepositoryAnswer, any Error
  > {
    let error: SearchError
    var stored: [Category: [SearchItem]]?
    switch failure {
    case let failure as SearchError: error = failure
    case let failure as FailureWithStoredAnswer: (error, stored) = (failure.error, failure.stored)
    default: return .failure(failure)
    }
    guard let stale = cache?.staleValue(for: key)?.items ?? stored else { return .failure(error) }
    log?(.servedStale(term: term.text, category: scope.name, error: error))
    return .success(RepositoryAnswer(items: stale, origin: .loaded, isStale: true))
  }
}

/// A load's failure together with the store's expired answer for its key, read by the load for the
/// offline fallback (a store's read may wait, which concluding a result cannot).
struct FailureWithStoredAnswer: Error {
  let error: SearchError
  let stored: [Category: [SearchItem]]
}
