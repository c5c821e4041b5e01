// Searches answered from memory: when every category is cached the search is answered at once,
// in the requested order; when only some are, only the others are asked.
import Pipeline
import Streams
import TestSupport
import Testing

@Suite struct CachedSearchTests {
  @Test func onlyTheCategoriesMissingFromTheCacheAreAskedAgain() throws {
    // Music fails (failures are never cached); movies and podcasts are answered and cached.
    let keys = [Key(0, "tay"), Key(1_000, ""), Key(2_000, "tay")]
    let (log, source) = try replay(keys) {
      StubSource(latency: .milliseconds(5), clock: $0, failures: ["music:*": .rateLimited])
    }
    #expect(source.requests.map(\.category) == [.music, .movies, .podcasts, .music])
    // The answer's source names where its items came from: the failed music request gave none.
    #expect(
      log.lines.dropLast() == [
        "search tay@300", "results tay load@305", "cleared@1000", "search tay@2300", "results tay cache@2305",
      ])
    guard case .results(_, _, let categories, _) = log.events[4].kind else {
      Issue.record("expected results, got \(log.lines)")
      return
    }
    #expect(categories.map(\.category) == [.music, .movies, .podcasts])
    #expect(categories[0].outcome == .failed(.rateLimited))
    for result in categories.dropFirst() {
      guard case .items(let items, let origin) = result.outcome else {
        Issue.record("expected items for \(result.category), got \(result.outcome)")
        continue
      }
      #expect(origin == .cache)
      #expect(!items.isEmpty)
    }
  }

  @Test func aWhollyCachedSearchAnswersAtOnceInTheRequestedOrder() throws {
    var configuration = PipelineConfiguration()
    configuration.progressive = true
    let keys = [Key(0, "tay"), Key(1_000, ""), Key(2_000, "tay")]
    let (log, source) = try replay(keys, configuration: configuration) {
      StubSource(
        clock: $0, latencies: [.music: .milliseconds(30), .movies: .milliseconds(10), .podcasts: .milliseconds(20)])
    }
    #expect(source.requests.count == 3)
    #expect(
      log.lines.dropLast() == [
        "search tay@300", "partial tay movies@310", "partial tay podcasts@320", "partial tay music@330",
        "results tay load@330", "cleared@1000",
        "search tay@2300", "partial tay music@2300", "partial tay movies@2300", "partial tay podcasts@2300",
        "results tay cache@2300",
      ])
  }

  @Test func aWhollyCachedSearchCountsOneHitPerCategory() throws {
    let keys = [Key(0, "tay"), Key(1_000, ""), Key(2_000, "tay"), Key(3_000, ""), Key(4_000, "tay")]
    let (log, _) = try replay(keys)
    guard case .summary(let summary) = log.events.last?.kind else {
      Issue.record("expected the summary last, got \(log.lines)")
      return
    }
    #expect(summary.cacheHits == 2 * Category.defaults.count)
    #expect(summary.requests == Category.defaults.count)
  }
}
