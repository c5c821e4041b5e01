// The refresh timer as an app writes it: a @MainActor model whose `Task {}` sleeps on an injected
// clock until each multiple of its period, then refreshes. Tests run it in virtual time, exactly.

/// A dashboard's model: the titles for `term`, refreshed every `period` while it is shown.
@MainActor public final class DashboardViewModel<C: Clock> where C.Duration == Duration {
  /// The titles of the last refresh that finished.
  public private(set) var titles: [String] = []
  /// How many refreshes finished (a failed one does not count).
  public private(set) var refreshes = 0

  private let term: String
  private let service: any SearchService
  private let clock: C
  private let period: Duration
  private var timer: Task<Void, Never>?

  /// Creates a model. Production passes `ContinuousClock()`; tests a runner's clock.
  public init(term: String, service: any SearchService, clock: C, period: Duration = .seconds(30)) {
    self.term = term
    self.service = service
    self.clock = clock
    self.period = period
  }

  /// Starts refreshing (when the dashboard appears): the first refresh one period from now, then
  /// one at every multiple of the period, however long each takes.
  public func startAutoRefresh() {
    timer?.cancel()
    timer = Task {
      var next = self.clock.now.advanced(by: self.period)
      while true {
        do { try await self.clock.sleep(until: next, tolerance: nil) } catch { return }
        await self.refresh()
        next = next.advanced(by: self.period)
      }
    }
  }

  /// Stops refreshing (when the dashboard disappears); a refresh in progress completes.
  public func stopAutoRefresh() { timer?.cancel() }

  private func refresh() async {
    guard let titles = try? await service.titles(matching: term) else { return }
    self.titles = titles
    refreshes += 1
  }
}
