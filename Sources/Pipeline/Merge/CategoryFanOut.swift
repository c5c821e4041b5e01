// One search, many categories: what can be answered at once is; the other categories are asked
// in parallel, each answer delivered by a callback, and the outcome comes back in the requested
// order when the last is in. No task per category or per search: the loads are the cache's
// tasks. Each request carries its own timeout (SearchRepository).
import Streams

/// The merged answer to one search.
struct SearchOutcome: Sendable {
  /// One result per requested category, in the requested order.
  var categories: [CategoryResult]
  /// `load` if any category started a request, else `joined` if any joined one, else `cache`.
  var source: ResultSource

  /// The error to report when every category failed: the first category's.
  var failure: SearchError? {
    var first: SearchError?
    for result in categories {
      guard case .failed(let error) = result.outcome else { return nil }
      first = first ?? error
    }
    return first
  }
}

/// Fans a search out to its categories and merges the answers.
///
/// - One category failing does not fail the others: its error stands in its place.
/// - The timeout is the repository's: a request not answered within it from when it was sent
///   is `timedOut`. A request waiting for the rate budget is not timed out; `onRateWait` hears
///   of the wait at once, with the category (`all` in single-request mode) and its length.
/// - Cancelling the search cancels every category and so their requests.
struct CategoryFanOut<C: Clock>: Sendable where C.Duration == Duration {
  let repository: SearchRepository<C>
  let configuration: PipelineConfiguration
  let clock: C

  private struct Arrival: Sendable {
    var index: Int
    var result: CategoryResult
    var origin: CacheOrigin?
  }

  /// Told that the request for a category (its name, or `all`) waits this long for a permit.
  typealias RateWaitReport = @Sendable (_ category: String, _ wait: Duration) -> Void

  /// A search, as far as it got without waiting.
  enum Work: Sendable {
    /// Every category was answered at once (from memory, disk, or a source that does not wait):
    /// nothing else is needed.
    case answered(SearchOutcome)
    /// Some category must be awaited: call this with what to do with the outcome; it asks the
    /// categories still missing and returns how to cancel them. The outcome is handed over on
    /// the thread that answers the last of them (or on this one, if they all answer at once).
    case waiting(@Sendable (_ completion: @escaping @Sendable (SearchOutcome) -> Void) -> (@Sendable () -> Void))
  }

  /// Starts a search of every configured category for `term`: what can be answered at once is
  /// answered on this thread (and reported to `progress` in category order); the rest, if any,
  /// is the returned work, which asks those categories in parallel, each delivered by a
  /// callback (no task per category or per search: the loads are the cache's tasks).
  /// `progress` receives each category's result as it arrives (progressive mode), one at a
  /// time; `onRateWait` each request that must wait for a permit.
  func start(
    _ term: SearchTerm, progress: (@Sendable (CategoryResult) -> Void)? = nil, onRateWait: RateWaitReport? = nil
  ) -> Work {
    if configuration.singleRequest, repository.source is any MultiCategorySearchSource {
      return startInOneRequest(term, onRateWait: onRateWait)
    }
    let categories = configuration.categories
    var answered: [Arrival] = []
    // Room for every category: grown one arrival at a time, it was reallocated twice per search.
    answered.reserveCapacity(categories.count)
    var missing: [(index: Int, category: Category)] = []
    for (index, category) in categories.enumerated() {
      if let answer = repository.answerAtOnce(for: term, scope: .category(category), searching: categories) {
        let arrival = Arrival(index: index, result: result(for: category, in: answer), origin: answer.origin)
        answered.append(arrival)
        progress?(arrival.result)
      } else {
        missing.append((index, category))
      }
    }
    guard !missing.isEmpty else { return .answered(merged(answered, categories: categories)) }
    return .waiting { [self, answered, missing] completion in
      let arrivals = CategoryArrivals<Arrival>(expected: missing.count, progress: { progress?($0.result) }) {
        [self] arrived in completion(merged(answered + arrived, categories: categories))
      }
      for (index, category) in missing {
        let report = onRateWait.map { report in { @Sendable (wait: Duration) in report(category.rawValue, wait) } }
        let request = repository.startAnswer(for: term, scope: .category(category), onRateWait: report) {
          [self] result in arrivals.arrive(arrival(index: index, category: category, from: result))
        }
        arrivals.add(request)
      }
      return { arrivals.cancel() }
    }
  }

  /// Category `category`'s arrival from the repository's `result`: its items, or its error.
  private func arrival(index: Int, category: Category, from result: Result<SearchRepository<C>.Answer, any Error>)
    -> Arrival
  {
    switch result {
    case .success(let answer):
      return Arrival(index: index, result: self.result(for: category, in: answer), origin: answer.origin)
    case .failure(let error):
      return Arrival(
        index: index, result: CategoryResult(category: category, outcome: .failed(searchError(error))), origin: nil)
    }
  }

  /// The outcome of `arrivals`, in the requested order. Every category arrives (a cancelled one
  /// with its cancellation); one that did not would stand as timed out rather than vanish.
  private func merged(_ arrivals: [Arrival], categories: [Category]) -> SearchOutcome {
    let source = ResultSource(aggregating: arrivals.lazy.compactMap(\.origin))
    // Every category answered at once arrives in order: nothing to place.
    if arrivals.count == categories.count, arrivals.indices.allSatisfy({ arrivals[$0].index == $0 }) {
      return SearchOutcome(categories: arrivals.map(\.result), source: source)
    }
    var results = [CategoryResult?](repeating: nil, count: categories.count)
    for arrival in arrivals { results[arrival.index] = arrival.result }
    return SearchOutcome(
      categories: results.enumerated().map { index, result in
        result ?? CategoryResult(category: categories[index], outcome: .failed(.timedOut))
      },
      source: source)
  }

  private func startInOneRequest(_ term: SearchTerm, onRateWait: RateWaitReport?) -> Work {
    let categories = configuration.categories
    // No category asked for: nothing to request, as in per-category mode.
    guard !categories.isEmpty else { return .answered(SearchOutcome(categories: [], source: .load)) }
    // An answer had at once is mapped like a loaded one: its origin says `cache` for a hit.
    if let answer = repository.answerAtOnce(for: term, scope: .all(categories), searching: categories) {
      return .answered(outcome(of: answer, in: categories))
    }
    return .waiting { [self] completion in
      // One request: its answer is the outcome, and its cancel the search's.
      let report = onRateWait.map { report in { @Sendable (wait: Duration) in report("all", wait) } }
      let request = repository.startAnswer(for: term, scope: .all(categories), onRateWait: report) { [self] result in
        switch result {
        case .success(let answer): completion(outcome(of: answer, in: categories))
        case .failure(let error): completion(failed(error, in: categories))
        }
      }
      return { request.cancel() }
    }
  }

  /// Every category failed with `error` (a single request that failed).
  private func failed(_ error: any Error, in categories: [Category]) -> SearchOutcome {
    let failure = searchError(error)
    return SearchOutcome(
      categories: categories.map { CategoryResult(category: $0, outcome: .failed(failure)) }, source: .load)
  }

  /// Every category's part of one answer that covers them all.
  private func outcome(of answer: SearchRepository<C>.Answer, in categories: [Category]) -> SearchOutcome {
    SearchOutcome(
      categories: categories.map { result(for: $0, in: answer) }, source: ResultSource(aggregating: [answer.origin]))
  }

  /// `category`'s items in `answer`, tagged with where they came from: the one place an answer
  /// becomes a category result, for cached, joined, loaded and stale answers alike.
  private func result(for category: Category, in answer: SearchRepository<C>.Answer) -> CategoryResult {
    CategoryResult(category: category, outcome: .items(items(of: category, in: answer), from: itemOrigin(answer)))
  }

  /// `category`'s items in `answer`. An answer for one category holds one entry: it is read as
  /// the first rather than hashed for, at every category of every search.
  private func items(of category: Category, in answer: SearchRepository<C>.Answer) -> [SearchItem] {
    if answer.items.count == 1, let only = answer.items.first {
      return only.key == category ? only.value : []
    }
    return answer.items[category] ?? []
  }

  private func itemOrigin(_ answer: SearchRepository<C>.Answer) -> ItemOrigin {
    if answer.isStale { return .stale }
    if answer.origin == .cached { return .cache }
    if answer.fromDisk { return .disk }
    return repository.source.isRemote ? .network : .catalog
  }
}

/// The typed error for anything a source threw.
func searchError(_ error: any Error) -> SearchError {
  switch error {
  case let error as SearchError: error
  case is TimeoutError: .timedOut
  default: .offline(String(describing: error))
  }
}

extension ResultSource {
  /// `load` if any category started a request, else `joined` if any joined one, else `cache`.
  init(aggregating origins: some Sequence<CacheOrigin>) {
    if origins.contains(.loaded) {
      self = .load
    } else if origins.contains(.joined) {
      self = .joined
    } else {
      var anyOrigin = origins.makeIterator()
      self = anyOrigin.next() == nil ? .load : .cache
    }
  }
}
