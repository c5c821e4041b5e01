// AsyncCache's answers without suspending: a hit or a load run at once, and nothing while a load
// is in flight (the fused path of a search answered at once).
import Streams
import StreamsTesting
import Testing

@Suite struct AsyncCacheImmediateTests {
  @Test func theCacheAnswersAHitOrAnImmediateLoadWithoutSuspending() {
    let clock = ManualClock()
    let cache = AsyncCache<String, Int, ManualClock>(capacity: 4, timeToLive: .seconds(1), clock: clock)
    let loads = Recorder<String>()
    #expect(cache.immediateValue(for: "a") == nil)
    let first = cache.immediateValue(for: "a") {
      loads.append("a")
      return (1, nil)
    }
    #expect(first?.origin == .loaded && first?.value == 1)
    let again = cache.immediateValue(for: "a") { (2, nil) }
    #expect(again?.origin == .cached && again?.value == 1)
    clock.advance(by: .seconds(1))
    // Expired: loaded again, and dated by the load's own instant.
    let reloaded = cache.immediateValue(for: "a") { (3, clock.now.advanced(by: .milliseconds(-999))) }
    #expect(reloaded?.origin == .loaded && reloaded?.value == 3)
    clock.advance(by: .milliseconds(1))
    #expect(cache.immediateValue(for: "a") == nil)
    #expect(loads.values == ["a"])
    #expect(cache.statistics.loads == 2 && cache.statistics.hits == 1)
  }

  @Test func theCacheAnswersNothingAtOnceWhileALoadIsInFlight() throws {
    let runner = VirtualTimeRunner()
    let cache = AsyncCache<String, Int, ManualClock>(capacity: 4, clock: runner.clock)
    let loading = runner.start {
      try await cache.value(for: "a") {
        try await runner.clock.sleep(for: .milliseconds(100))
        return 1
      }
    }
    runner.runUntilIdle()
    #expect(cache.immediateValue(for: "a") { (2, nil) } == nil)
    #expect(try runner.finish(loading).value == 1)
    #expect(cache.immediateValue(for: "a")?.value == 1)
  }
}
