// Single-request mode on the catalog: one call answers each category as a per-category call
// would, after one latency.
import Catalog
import Pipeline
import Streams
import TestSupport
import Testing

@Suite struct CatalogAllCategoriesTests {
  @Test func oneCallAnswersEveryCategoryLikeSeparateCallsAfterOneLatency() async throws {
    try await OwnThread.running {
      let runner = VirtualTimeRunner()
      let clock = runner.clock
      let source = CatalogSource(latency: .milliseconds(80), clock: clock)
      let request = SearchRequest(term: "taylor", category: .music, limit: 5)
      let categories: [Category] = [.music, .movies, .podcasts]
      let (combined, finishedAt) = try runner.run { () -> ([Category: [SearchItem]], Int64) in
        let answer = try await source.search(request, categories: categories)
        return (answer, clock.now.milliseconds)
      }
      #expect(finishedAt == 80)
      let separate = try runner.run { () -> [Category: [SearchItem]] in
        var answer: [Category: [SearchItem]] = [:]
        for category in categories {
          var perCategory = request
          perCategory.category = category
          answer[category] = try await source.search(perCategory)
        }
        return answer
      }
      #expect(combined == separate)
      #expect(!(combined[.music] ?? []).isEmpty)
    }
  }
}
