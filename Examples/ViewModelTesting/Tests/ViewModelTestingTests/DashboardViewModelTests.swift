// The main-actor refresh timer in virtual time: exactly one refresh per period, asked at the exact
// multiples of 30 s and shown when the stub's 200 ms answer arrives, in every run.
import Streams
import StreamsTesting
import Testing
import ViewModelTesting

@Suite(.timeLimit(.minutes(1))) struct DashboardViewModelTests {
  /// When the service is asked: every 30 s through 150 s.
  static let asked = stride(from: 30_000, through: 150_000, by: 30_000).map { "news@\($0)" }

  @MainActor @Test func refreshesExactlyOncePerPeriodOnTheMainActor() async {
    await withVirtualTime(watchdog: .seconds(20)) { runner in
      let service = StubSearchService(clock: runner.clock)
      let model = DashboardViewModel(term: "news", service: service, clock: runner.clock)
      model.startAutoRefresh()  // as the dashboard's `onAppear` does
      await runner.drive(until: .milliseconds(150_000))
      #expect(service.asked.values == Self.asked)
      #expect(model.refreshes == 4)  // the fifth answer is 200 ms away
      await runner.drive(until: .milliseconds(150_199))
      #expect(model.refreshes == 4)
      await runner.drive(until: .milliseconds(150_200))
      #expect(model.refreshes == 5)
      #expect(model.titles == ["NEWS"])
      model.stopAutoRefresh()
      await runner.drive()
      #expect(runner.clock.sleeperCount == 0)
    }
  }

  @Test func refreshesExactlyOncePerPeriodFromANonisolatedTest() async {
    await withVirtualTime(watchdog: .seconds(20)) { runner in
      let service = StubSearchService(clock: runner.clock)
      let model = await DashboardViewModel(term: "news", service: service, clock: runner.clock)
      await model.startAutoRefresh()
      await runner.drive(until: .milliseconds(150_200))
      #expect(service.asked.values == Self.asked)
      #expect(await model.refreshes == 5)
      await model.stopAutoRefresh()
      await runner.drive()
      #expect(runner.clock.sleeperCount == 0)
    }
  }
}
