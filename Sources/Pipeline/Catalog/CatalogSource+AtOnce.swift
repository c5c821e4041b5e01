// The fused path of a search: an in-memory catalog with no simulated latency has its answer at
// once, so a search it answers needs no task, no task group and no timeout (see
// SearchRepository.answerAtOnce). With a latency it waits on its clock like any source.

/// A source that can sometimes answer without waiting.
protocol AtOnceSearchSource: SearchSource {
  /// Whether ``answerAtOnce(_:categories:)`` may be used: the source would not wait.
  var answersAtOnce: Bool { get }

  /// The answer for `request` in each of `categories`, computed on this thread, in a search of
  /// `searching` (which holds `categories`: the search asks the others in calls of their own,
  /// and the source may share work between them). Never waits and never fails; only called
  /// when ``answersAtOnce``.
  func answerAtOnce(_ request: SearchRequest, categories: [Category], searching: [Category]) -> [Category: [SearchItem]]
}

extension CatalogSource: AtOnceSearchSource {
  var answersAtOnce: Bool { latency <= .zero || !hasClock }

  func answerAtOnce(_ request: SearchRequest, categories: [Category], searching: [Category]) -> [Category: [SearchItem]]
  {
    var answer: [Category: [SearchItem]] = [:]
    // Folded once for all categories (and kept for the next category's call).
    let query = recentQuery.query(for: request.term)
    let typoCategories = typoCategories(of: searching)
    for category in categories {
      answer[category] = indexes[category]?.search(query, limit: request.limit, categories: typoCategories) ?? []
    }
    return answer
  }
}
