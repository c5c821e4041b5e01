// The tier of the answer path that talks to the source: a permit from the rate limits, the
// request within its timeout, its retries, each request counted and logged once. It knows nothing
// of caches or stores; the repository in front of it decides when a request is needed.
import Streams
import Synchronization

/// Sends requests to the source: each behind its permits, counted, observed and logged once,
/// retried when the failure is transient, cut off by the search timeout.
///
/// - The timeout (`searchTimeout`) starts when a request is sent, after its permit, and covers
///   its retries and their backoffs: waiting for the rate budget is never timed out. When the
///   deadline comes during a backoff, the last failure is reported, not a timeout.
/// - A request holds its permits, the process's and the shared one, from its grant until its end
///   (``RequestPermit/held(during:)``).
final class SourceRequester<C: Clock>: Sendable where C.Duration == Duration {
  /// The source's answer: items by category.
  typealias Items = [Category: [SearchItem]]
  /// Told, at once, that a request must wait about this long for the rate budget.
  typealias RateWaitReport = @Sendable (Duration) -> Void

  let source: any SearchSource
  private let configuration: PipelineConfiguration
  private let observers: Observers
  private let limiter: (any RatePermits<C.Instant>)?
  private let budget: SharedRateBudget?
  private let clock: C
  private let requestCount = Mutex(0)
  /// The source as one that can answer at once, cast once here: cast per search, the dynamic
  /// cast cost a replay more than the cache lookup it precedes.
  private let atOnceSource: (any AtOnceSearchSource)?
  /// The source's name and whether it is remote, read once: a remote source's requests are
  /// logged as network traffic.
  let sourceName: String
  private let sourceIsRemote: Bool

  init(source: any SearchSource, configuration: PipelineConfiguration, budget: SharedRateBudget?, clock: C) {
    self.source = source
    atOnceSource = source as? any AtOnceSearchSource
    sourceName = source.name
    sourceIsRemote = source.isRemote
    self.configuration = configuration
    observers = Observers(configuration.observers)
    limiter = configuration.rateLimit.map { RateLimiter(permits: $0.permits, per: $0.window, clock: clock) }
    self.budget = budget
    self.clock = clock
  }

  /// Requests sent to the source so far.
  var requests: Int { requestCount.withLock { $0 } }

  /// Whether a request may be answered at once, on the caller's thread: the source answers at
  /// once (an in-memory catalog with no latency) and no permit is needed.
  var answersAtOnce: Bool { limiter == nil && budget == nil && atOnceSource?.answersAtOnce == true }

  /// The source's answer for `term` in `scope`, at once, counted and logged as any request. Only
  /// when ``answersAtOnce`` (checked once by the caller, per category of every search); nil,
  /// having done nothing, for a source that cannot or a scope with no category.
  /// `searching` are all the categories of the search (a source may share work between them).
  func answerAtOnce(term: SearchTerm, scope: SearchScope, searching: [Category]) -> Items? {
    guard let source = atOnceSource, let first = scope.firstCategory else { return nil }
    countRequest(term: term, scope: scope)
    return source.answerAtOnce(request(term, first), categories: scope.categories, searching: searching)
  }

  /// The first permit (reported when it must wait), then the request and its retries, all
  /// within the timeout counted from the first send. Runs as `load`'s task, which the timeout
  /// cancels.
  func fetch(term: SearchTerm, scope: SearchScope, onRateWait: RateWaitReport?, load: CacheLoad) async throws -> Items {
    let first = try await takePermit(onRateWait: onRateWait)
    let deadline = configuration.searchTimeout.map { clock.now.advanced(by: $0) }
    guard let retry = configuration.retry else {
      return try await first.held { try await send(term: term, scope: scope, by: deadline, cancelling: load) }
    }
    var lastFailure: SearchError?
    return try await withRetry(retry, clock: clock, until: deadline, shouldRetry: Self.isTransient) {
      var permit = first
      if let lastFailure {
        // A retry waits for a permit like any request; if that took it past the deadline, the
        // failure that made it retry is the answer (and the permit goes back unused).
        permit = try await takePermit(onRateWait: nil)
        if let deadline, clock.now >= deadline {
          permit?.finish(mayStillArrive: false)
          throw lastFailure
        }
      }
      do {
        return try await permit.held { try await send(term: term, scope: scope, by: deadline, cancelling: load) }
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
  private func takePermit(onRateWait: RateWaitReport?) async throws -> RequestPermit? {
    guard limiter != nil || budget != nil else { return nil }
    let local = try await limiter?.acquireUntilFinished { [clock] expected in
      onRateWait?(clock.now.duration(to: expected))
    }
    do {
      return RequestPermit(local: local, shared: try await budget?.acquire(onWait: onRateWait))
    } catch {
      local?.finish(mayStillArrive: false)
      throw error
    }
  }

  /// One request, cut off at `deadline` (`timedOut`). It runs in the load's task, which has
  /// nothing else to do, and the timeout cancels that task
  /// (`withTimeout(…cancellingItsTaskThrough:)`): no task of its own per request.
  private func send(
    term: SearchTerm, scope: SearchScope, by deadline: C.Instant?, cancelling load: CacheLoad
  ) async throws -> Items {
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

  /// Failures worth another attempt: the server's (5xx) and a lost or refused connection.
  /// Rate limiting is not: trying again is exactly what the service asked us not to do.
  static func isTransient(_ error: any Error) -> Bool {
    switch error as? SearchError {
    case .server, .offline: true
    default: false
    }
  }

  /// One request for `scope`, counted and logged. A `.all` scope is one request to a
  /// multi-category source; CategoryFanOut asks for it of no other source and never for no
  /// category, but should either happen, it is one request per category, each further one a
  /// request like any: a permit of its own, counted and logged as its category's.
  private func attempt(term: SearchTerm, scope: SearchScope) async throws -> Items {
    switch scope {
    case .category(let category):
      let request = request(term, category)
      return try await counted(term: term, scope: scope) { [category: try await source.search(request)] }
    case .all(let categories):
      if let combined = source as? any MultiCategorySearchSource, let first = categories.first {
        let request = request(term, first)
        return try await counted(term: term, scope: scope) {
          try await combined.search(request, categories: categories)
        }
      }
      var answer: Items = [:]
      for (index, category) in categories.enumerated() {
        let permit = index == 0 ? nil : try await takePermit(onRateWait: nil)
        let items = try await permit.held { try await attempt(term: term, scope: .category(category)) }
        answer.merge(items) { _, new in new }
      }
      return answer
    }
  }

  /// Runs `call`, one request to the source, counted, observed and logged as sent, its failure
  /// logged. A source that does real I/O is waited for by a replay's runner, which must not move
  /// virtual time past it.
  private func counted(term: SearchTerm, scope: SearchScope, _ call: () async throws -> Items) async throws -> Items {
    countRequest(term: term, scope: scope)
    do {
      return source.performsRealIO ? try await withExternalWork(call) : try await call()
    } catch let error as SearchError {
      logFailure(term: term, scope: scope, error: error)
      throw error
    }
  }

  /// Counts, observes and logs one request sent to the source.
  private func countRequest(term: SearchTerm, scope: SearchScope) {
    requestCount.withLock { $0 += 1 }
    observers.tell { .requestSent(term: term.text, category: scope.name, source: sourceName, remote: sourceIsRemote) }
    configuration.log?(
      sourceIsRemote
        ? .fetching(term: term.text, category: scope.name)
        : .searching(term: term.text, category: scope.name, source: sourceName))
  }

  /// Logs a request that failed with `error`, as a remote or a local source's.
  private func logFailure(term: SearchTerm, scope: SearchScope, error: SearchError) {
    configuration.log?(
      sourceIsRemote
        ? .failed(term: term.text, category: scope.name, error: error)
        : .localSearchFailed(term: term.text, category: scope.name, source: sourceName, error: error))
  }

  private func request(_ term: SearchTerm, _ category: Category) -> SearchRequest {
    SearchRequest(
      term: term.text, category: category, limit: configuration.limit, country: configuration.country,
      language: configuration.language, explicit: configuration.explicit)
  }
}
