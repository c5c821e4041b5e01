// The lesson as an app writes it: a @MainActor view model that searches 500 ms after the last
// keystroke, on an injected clock, through a cache that shares a search still in flight.
import Streams

/// A search field's model: `query` is set on every keystroke; `results` follow, debounced.
@MainActor public final class SearchViewModel<C: Clock> where C.Duration == Duration {
  /// The results of the last search that finished, in the service's order.
  public private(set) var results: [String] = []
  /// How many searches finished (cancelled ones do not count).
  public private(set) var searchesShown = 0
  /// The field's text. Setting it cancels a pending search and waits `debounce` again.
  public var query = "" {
    didSet { scheduleSearch(for: query) }
  }

  private let clock: C
  private let debounce: Duration
  private let cache: AsyncCache<String, [String], C>
  private let service: any SearchService
  private var pending: Task<Void, Never>?

  /// Creates a model. Production passes `ContinuousClock()`; tests a runner's clock. Models
  /// given the same `cache` (a search screen and a suggestions list) share its answers, and a
  /// search one of them has in flight.
  public init(
    service: any SearchService, clock: C, debounce: Duration = .milliseconds(500),
    cache: AsyncCache<String, [String], C>? = nil
  ) {
    self.service = service
    self.clock = clock
    self.debounce = debounce
    self.cache = cache ?? AsyncCache(capacity: 64, timeToLive: .seconds(60), clock: clock)
  }

  private func scheduleSearch(for term: String) {
    pending?.cancel()
    pending = Task { @MainActor in
      do {
        try await self.clock.sleep(for: self.debounce)
        let service = self.service
        let answer = try await self.cache.value(for: term) { try await service.titles(matching: term) }
        self.results = answer.value
        self.searchesShown += 1
      } catch {
        // Cancelled by a newer keystroke: the newer search shows its own results.
      }
    }
  }
}
