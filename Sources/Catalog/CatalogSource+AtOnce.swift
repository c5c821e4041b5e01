// The fused path of a search: an in-memory catalog with no simulated latency has its answer at
// once, so a search it answers needs no task, no task group and no timeout. With a latency it
// waits on its clock like any source.
import Pipeline

extension CatalogSource: AtOnceSearchSource {
  package var answersAtOnce: Bool { latency <= .zero || !hasClock }

  package func answerAtOnce(
    _ request: SearchRequest, categories: [Category], searching: [Category]
  ) -> [Category: [SearchItem]] {
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
