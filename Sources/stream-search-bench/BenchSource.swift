// The search source of the in-process benchmarks: answers a few fixed items per category after
// a simulated latency on the injected clock. A stand-in for the offline CatalogSource until that
// lands on this branch; the lead switches `ReplaySection` to CatalogSource after merging.
import Pipeline
import Streams

/// Answers every request with the same `limit` made-up items of its category after `latency`.
struct BenchSource: SearchSource {
  let name = "bench"
  let isNetwork = false
  let latency: Duration
  let clock: ManualClock
  private let items: [Category: [SearchItem]]

  init(latency: Duration, clock: ManualClock, itemsPerCategory: Int = 10) {
    self.latency = latency
    self.clock = clock
    var items: [Category: [SearchItem]] = [:]
    for (offset, category) in Category.allCases.enumerated() {
      items[category] = (0..<itemsPerCategory).map { index in
        SearchItem(
          id: offset * 1_000 + index, kind: category.entity, trackName: "\(category.rawValue) item \(index)",
          artistName: "Artist \(index)")
      }
    }
    self.items = items
  }

  func search(_ request: SearchRequest) async throws -> [SearchItem] {
    try await clock.sleep(for: latency)
    return Array((items[request.category] ?? []).prefix(request.limit))
  }
}
