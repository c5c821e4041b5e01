// The view model in virtual time: from a @MainActor test (the model read directly), from a
// nonisolated one, with a stub whose latency overlaps a repeated search, and an endless timer.
// Each test has a real-time bound: the runner's watchdog, and Swift Testing's time limit.
import Streams
import StreamsTesting
import Testing
import ViewModelTesting

@Suite(.timeLimit(.minutes(1))) struct SearchViewModelTests {
  @MainActor @Test func searchesHalfASecondAfterTheLastKeystrokeOnTheMainActor() async throws {
    try await withVirtualTime(watchdog: .seconds(20)) { runner in
      let service = StubSearchService(clock: runner.clock)
      let model = SearchViewModel(service: service, clock: runner.clock)
      for (at, text) in [(0, "t"), (100, "ta"), (200, "tay")] as [(Int64, String)] {
        await runner.drive(until: .milliseconds(at))
        try await runner.drive { await MainActor.run { model.query = text } }
      }
      await runner.drive(until: .milliseconds(699))
      #expect(service.asked.values.isEmpty)
      await runner.drive(until: .milliseconds(700))
      #expect(service.asked.values == ["tay@700"])
      await runner.drive(until: .milliseconds(899))
      #expect(model.results.isEmpty)
      await runner.drive(until: .milliseconds(900))
      #expect(model.results == ["TAY"])
      #expect(model.searchesShown == 1)
      #expect(runner.clock.sleeperCount == 0)
    }
  }

  @Test func searchesHalfASecondAfterTheLastKeystrokeFromANonisolatedTest() throws {
    try withVirtualTime(watchdog: .seconds(20)) { runner in
      let service = StubSearchService(clock: runner.clock)
      let model = try runner.run { await SearchViewModel(service: service, clock: runner.clock) }
      for (at, text) in [(0, "t"), (100, "ta"), (200, "tay")] as [(Int64, String)] {
        runner.advance(to: .milliseconds(at))
        try runner.run { await MainActor.run { model.query = text } }
      }
      runner.advance(to: .milliseconds(899))
      #expect(try runner.run { await model.results }.isEmpty)
      runner.advance(to: .milliseconds(900))
      #expect(try runner.run { await model.results } == ["TAY"])
      #expect(service.asked.values == ["tay@700"])
    }
  }

  @MainActor @Test func aSecondModelAskingTheSameTermJoinsTheSearchInFlight() async throws {
    try await withVirtualTime(watchdog: .seconds(20)) { runner in
      let service = StubSearchService(clock: runner.clock, latency: .milliseconds(400))
      let cache = AsyncCache<String, [String], ManualClock>(capacity: 8, clock: runner.clock)
      let screen = SearchViewModel(service: service, clock: runner.clock, cache: cache)
      let suggestions = SearchViewModel(service: service, clock: runner.clock, cache: cache)
      try await runner.drive { await MainActor.run { screen.query = "tay" } }  // asks at 500
      await runner.drive(until: .milliseconds(100))
      try await runner.drive { await MainActor.run { suggestions.query = "tay" } }  // joins at 600
      await runner.drive(until: .milliseconds(899))
      #expect(screen.results.isEmpty)
      #expect(suggestions.results.isEmpty)
      await runner.drive(until: .milliseconds(900))
      #expect(screen.results == ["TAY"])
      #expect(suggestions.results == ["TAY"])
      #expect(service.asked.values == ["tay@500"])
      #expect(cache.statistics.joins == 1)
    }
  }

  @Test func anEndlessTimerIsSteppedExactlyAndStopsAtTheHorizonInsteadOfHanging() throws {
    try withVirtualTime(horizon: .seconds(600), watchdog: .seconds(20)) { runner in
      let refreshes = Recorder<Int64>()
      let clock = runner.clock
      let timer = try runner.run {
        RefreshTimer(period: .seconds(30), clock: clock) { refreshes.append(clock.now.milliseconds / 1_000) }
      }
      runner.advance(to: .milliseconds(89_999))
      #expect(refreshes.values == [30, 60])
      runner.advance(to: .milliseconds(90_000))
      #expect(refreshes.values == [30, 60, 90])
      // Waiting for something that never comes while the timer ticks on fails with what is
      // still asleep, instead of hanging.
      let (neverComes, end) = AsyncStream.makeStream(of: Int.self)
      let waiting = runner.start { for await _ in neverComes {} }
      let stall = #expect(throws: VirtualTimeStall.self) { try runner.finish(waiting) }
      #expect(stall?.reason == .horizonReached(.seconds(600)))
      #expect(stall?.sleeperCount == 1)
      #expect(refreshes.values.last == 690)
      timer.stop()
      end.finish()
      try runner.finish(waiting)
      #expect(runner.clock.sleeperCount == 0)
    }
  }
}
