// Single-request mode on the offline catalog: one call answers every category, after one
// latency, as one `media=all` request to iTunes would.
import Pipeline

extension CatalogSource: MultiCategorySearchSource {
  /// The items matching `request.term` in each of `categories`, at most `request.limit` per
  /// category, held back once for `latency`. Cancellation is as for ``search(_:)``.
  public func search(
    _ request: SearchRequest, categories: [Category]
  ) async throws -> [Category: [SearchItem]] {
    var answer: [Category: [SearchItem]] = [:]
    for category in categories {
      var perCategory = request
      perCategory.category = category
      answer[category] = try await search(perCategory, among: categories, waiting: false)
    }
    try await holdBack()
    return answer
  }
}
