// One search, many categories: each category is asked in parallel in a task group, the slow
// ones are cut off by the search's timeout, and the answers come back in the requested order.
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
/// - After the timeout, categories still waiting are cancelled and reported as `timedOut`; the
///   timer is cancelled as soon as every category has answered, so a fast search never waits
///   for it (a task group waits for all its children).
/// - Cancelling the search cancels every category and so their requests.
struct CategoryFanOut<C: Clock>: Sendable where C.Duration == Duration {
  let repository: SearchRepository<C>
  let configuration: PipelineConfiguration
  let clock: C

  private enum Arrival: Sendable {
    case answered(index: Int, result: CategoryResult, origin: CacheOrigin?)
    case timedOut
  }

  /// Searches every configured category for `term`; `progress` receives each category's result
  /// as it arrives (progressive mode).
  func search(
    _ term: SearchTerm, progress: (@Sendable (CategoryResult) -> Void)? = nil
  ) async -> SearchOutcome {
    if configuration.singleRequest, repository.source is any MultiCategorySearchSource {
      return await searchInOneRequest(term)
    }
    let categories = configuration.categories
    if let cached = await repository.cachedAnswers(for: term, scopes: categories.map { .category($0) }) {
      return answeredFromCache(categories: categories, answers: cached, progress: progress)
    }
    var results = [CategoryResult?](repeating: nil, count: categories.count)
    var origins: [CacheOrigin] = []
    await withTaskGroup(of: Arrival.self) { group in
      for (index, category) in categories.enumerated() {
        group.addTask { [repository] in
          do {
            let answer = try await repository.answer(for: term, scope: .category(category))
            return .answered(index: index, result: result(for: category, in: answer), origin: answer.origin)
          } catch {
            return .answered(
              index: index, result: CategoryResult(category: category, outcome: .failed(searchError(error))),
              origin: nil)
          }
        }
      }
      if let timeout = configuration.searchTimeout {
        group.addTask { [clock] in
          // Cancelled when every category has answered: then this result is never read.
          try? await clock.sleep(for: timeout)
          return .timedOut
        }
      }
      var waiting = categories.count
      while waiting > 0, let arrival = await group.next() {
        switch arrival {
        case .answered(let index, let result, let origin):
          guard results[index] == nil else { continue }
          results[index] = result
          if let origin { origins.append(origin) }
          waiting -= 1
          progress?(result)
        case .timedOut:
          for index in results.indices where results[index] == nil {
            results[index] = CategoryResult(category: categories[index], outcome: .failed(.timedOut))
          }
          waiting = 0
        }
      }
      // The loser of the race, timer or slow categories, must not hold the search open.
      group.cancelAll()
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

  private func searchInOneRequest(_ term: SearchTerm) async -> SearchOutcome {
    let categories = configuration.categories
    // A cached answer is mapped like a loaded one: its origin says `cache` for the whole search.
    if let cached = await repository.cachedAnswers(for: term, scopes: [.all(categories)]), let answer = cached.first {
      return outcome(of: answer, in: categories)
    }
    do {
      let request: @Sendable () async throws -> SearchRepository<C>.Answer = { [repository] in
        try await repository.answer(for: term, scope: .all(categories))
      }
      let answer: SearchRepository<C>.Answer
      if let timeout = configuration.searchTimeout {
        answer = try await withTimeout(timeout, clock: clock, operation: request)
      } else {
        answer = try await request()
      }
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
