// One search, many categories: each category is asked in parallel in a task group, and the
// answers come back in the requested order. Each request carries its own timeout (SearchRepository).
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

  /// Searches every configured category for `term`; `progress` receives each category's result
  /// as it arrives (progressive mode), `onRateWait` each request that must wait for a permit.
  func search(
    _ term: SearchTerm, progress: (@Sendable (CategoryResult) -> Void)? = nil, onRateWait: RateWaitReport? = nil
  ) async -> SearchOutcome {
    if configuration.singleRequest, repository.source is any MultiCategorySearchSource {
      return await searchInOneRequest(term, onRateWait: onRateWait)
    }
    let categories = configuration.categories
    if let cached = await repository.cachedAnswers(for: term, scopes: categories.map { .category($0) }) {
      return answeredFromCache(categories: categories, answers: cached, progress: progress)
    }
    var results = [CategoryResult?](repeating: nil, count: categories.count)
    var origins: [CacheOrigin] = []
    await withTaskGroup(of: Arrival.self) { group in
      for (index, category) in categories.enumerated() {
        let report = onRateWait.map { report in { @Sendable (wait: Duration) in report(category.rawValue, wait) } }
        group.addTask { [repository] in
          do {
            let answer = try await repository.answer(for: term, scope: .category(category), onRateWait: report)
            return Arrival(index: index, result: result(for: category, in: answer), origin: answer.origin)
          } catch {
            return Arrival(
              index: index, result: CategoryResult(category: category, outcome: .failed(searchError(error))),
              origin: nil)
          }
        }
      }
      for await arrival in group {
        results[arrival.index] = arrival.result
        if let origin = arrival.origin { origins.append(origin) }
        progress?(arrival.result)
      }
    }
    return SearchOutcome(
      categories: results.enumerated().map { index, result in
        result ?? CategoryResult(category: categories[index], outcome: .failed(.timedOut))
      },
      source: ResultSource(aggregating: origins))
  }

  /// Every category answered from memory, in order: what the task group would have produced,
  /// without its tasks and timer.
  private func answeredFromCache(
    categories: [Category], answers: [SearchRepository<C>.Answer],
    progress: (@Sendable (CategoryResult) -> Void)?
  ) -> SearchOutcome {
    let results = zip(categories, answers).map { result(for: $0, in: $1) }
    if let progress { results.forEach(progress) }
    return SearchOutcome(categories: results, source: .cache)
  }

  private func searchInOneRequest(_ term: SearchTerm, onRateWait: RateWaitReport?) async -> SearchOutcome {
    let categories = configuration.categories
    // No category asked for: nothing to request, as in per-category mode.
    guard !categories.isEmpty else { return SearchOutcome(categories: [], source: .load) }
    // A cached answer is mapped like a loaded one: its origin says `cache` for the whole search.
    if let cached = await repository.cachedAnswers(for: term, scopes: [.all(categories)]), let answer = cached.first {
      return outcome(of: answer, in: categories)
    }
    do {
      let report = onRateWait.map { report in { @Sendable (wait: Duration) in report("all", wait) } }
      let answer = try await repository.answer(for: term, scope: .all(categories), onRateWait: report)
      return outcome(of: answer, in: categories)
    } catch {
      let failure = searchError(error)
      return SearchOutcome(
        categories: categories.map { CategoryResult(category: $0, outcome: .failed(failure)) },
        source: .load)
    }
  }

  /// Every category's part of one answer that covers them all.
  private func outcome(of answer: SearchRepository<C>.Answer, in categories: [Category]) -> SearchOutcome {
    SearchOutcome(
      categories: categories.map { result(for: $0, in: answer) }, source: ResultSource(aggregating: [answer.origin]))
  }

  /// `category`'s items in `answer`, tagged with where they came from: the one place an answer
  /// becomes a category result, for cached, joined, loaded and stale answers alike.
  private func result(for category: Category, in answer: SearchRepository<C>.Answer) -> CategoryResult {
    CategoryResult(category: category, outcome: .items(answer.items[category] ?? [], from: itemOrigin(answer)))
  }

  private func itemOrigin(_ answer: SearchRepository<C>.Answer) -> ItemOrigin {
    if answer.isStale { return .stale }
    if answer.origin == .cached { return .cache }
    if answer.fromDisk { return .disk }
    return repository.source.isNetwork ? .network : .catalog
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
  init(aggregating origins: [CacheOrigin]) {
    if origins.contains(.loaded) {
      self = .load
    } else if origins.contains(.joined) {
      self = .joined
    } else {
      self = origins.isEmpty ? .load : .cache
    }
  }
}
