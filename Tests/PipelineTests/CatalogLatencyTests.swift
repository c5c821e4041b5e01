// The catalog's simulated latency: the answer arrives exactly when it has passed on the injected
// clock, never earlier; cancellation during the wait throws; zero latency leaves the clock alone.
import Catalog
import Pipeline
import Streams
import Synchronization
import Testing

@Suite struct CatalogLatencyTests {
  private let request = SearchRequest(term: "star", category: .music)

  @Test func answersExactlyWhenTheLatencyHasPassed() throws {
    let runner = VirtualTimeRunner()
    let source = CatalogSource(items: CatalogTestItems.tiers, latency: .milliseconds(80), clock: runner.clock)
    let request = request
    let task = runner.start { try await source.search(request) }
    runner.advance(to: .milliseconds(79))
    #expect(!task.isFinished)
    runner.advance(to: .milliseconds(80))
    #expect(task.isFinished)
    #expect(try runner.finish(task).map(\.id) == [4, 3])
    #expect(runner.now == .milliseconds(80))
    #expect(runner.clock.sleeperCount == 0)
  }

  @Test func cancellationDuringTheLatencyThrowsCancellationError() throws {
    let runner = VirtualTimeRunner()
    let source = CatalogSource(items: CatalogTestItems.tiers, latency: .seconds(5), clock: runner.clock)
    let request = request
    let task = runner.start { try await source.search(request) }
    runner.runUntilIdle()
    #expect(runner.clock.sleeperCount == 1)
    task.cancel()
    #expect(throws: CancellationError.self) { try runner.finish(task) }
    #expect(runner.now == .zero)
    #expect(runner.clock.sleeperCount == 0)
  }

  @Test func aCancelledTaskGetsNoAnswerEvenWithoutLatency() {
    let runner = VirtualTimeRunner()
    let source = CatalogSource(items: CatalogTestItems.tiers, latency: .zero, clock: runner.clock)
    let request = request
    // The body is queued until the runner is driven, so it starts already cancelled.
    let task = runner.start { try await source.search(request) }
    task.cancel()
    #expect(throws: CancellationError.self) { try runner.finish(task) }
  }

  @Test func zeroLatencyNeverTouchesTheClock() async throws {
    let clock = UntouchableClock()
    let source = CatalogSource(items: CatalogTestItems.tiers, latency: .zero, clock: clock)
    let items = try await source.search(request)
    #expect(items.map(\.id) == [4, 3])
    #expect(clock.touches == 0)
  }
}

/// A clock that counts every reading and sleep, to prove none happens.
private final class UntouchableClock: Clock, Sendable {
  private let count = Atomic<Int>(0)

  var touches: Int { count.load(ordering: .relaxed) }

  var now: ContinuousClock.Instant {
    count.add(1, ordering: .relaxed)
    return ContinuousClock().now
  }

  var minimumResolution: Duration {
    count.add(1, ordering: .relaxed)
    return .zero
  }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    count.add(1, ordering: .relaxed)
  }
}
