// A main-actor refresh timer written as apps write it (a plain `Task {}` from the model, a
// `sleep(until:)` loop at exact multiples of its period): in virtual time it ticks exactly once a
// period, at the exact instant, however the test is isolated and whatever starts the loop.
import Dispatch
import Streams
import StreamsTesting
import Testing

/// A dashboard that refreshes every `period` on a clock it is handed, from its `init` unless told
/// otherwise. The docs' `DashboardModel`.
@MainActor final class DashboardModel<C: Clock> where C.Duration == Duration {
  private(set) var refreshedAt: [C.Instant] = []
  private let clock: C
  private let period: Duration
  private var timer: Task<Void, Never>?

  var refreshes: Int { refreshedAt.count }

  init(clock: C, period: Duration = .seconds(30), startsRefreshing: Bool = true) {
    self.clock = clock
    self.period = period
    if startsRefreshing { start() }
  }

  func start() {
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

  func stop() { timer?.cancel() }

  private func refresh() async { refreshedAt.append(clock.now) }
}

/// Something on the main actor that calls the model back when the user signs in.
@MainActor final class SessionEvents {
  var onSignIn: (@MainActor () -> Void)?
  func signIn() { onSignIn?() }
}

@Suite struct VirtualTimeMainActorTimerTests {
  /// Every 30 s from `start` through 150 s.
  static func ticks(from start: Int64 = 0) -> [ManualClock.Instant] {
    stride(from: start + 30_000, through: 150_000, by: 30_000).map { .milliseconds($0) }
  }

  /// How many runs each test makes: a race shows as a missing or late tick in some of them.
  static let runs = 10

  @MainActor @Test func aTimerStartedInTheModelsInitTicksOncePerPeriod() async {
    for _ in 0..<Self.runs {
      await withVirtualTime { runner in
        let model = DashboardModel(clock: runner.clock)
        await runner.drive(until: .milliseconds(149_999))
        #expect(model.refreshedAt == Array(Self.ticks().dropLast()))
        await runner.drive(until: .milliseconds(150_000))
        #expect(model.refreshedAt == Self.ticks())
        model.stop()
        await runner.drive()
        #expect(runner.clock.sleeperCount == 0)
      }
    }
  }

  @MainActor @Test func aTimerStartedByAMethodTheTestCallsTicksOncePerPeriod() async {
    for _ in 0..<Self.runs {
      await withVirtualTime { runner in
        let model = DashboardModel(clock: runner.clock, startsRefreshing: false)
        model.start()
        for (period, tick) in Self.ticks().enumerated() {
          await runner.drive(until: tick)
          #expect(model.refreshes == period + 1)
        }
        #expect(model.refreshedAt == Self.ticks())
        model.stop()
        await runner.drive()
        #expect(runner.clock.sleeperCount == 0)
      }
    }
  }

  @MainActor @Test func aTimerStartedByAMainActorCallbackTicksOncePerPeriod() async {
    for _ in 0..<Self.runs {
      await withVirtualTime { runner in
        let model = DashboardModel(clock: runner.clock, startsRefreshing: false)
        let session = SessionEvents()
        session.onSignIn = { model.start() }
        await runner.drive(until: .milliseconds(10_000))
        session.signIn()
        await runner.drive(until: .milliseconds(150_000))
        #expect(model.refreshedAt == Self.ticks(from: 10_000))
        model.stop()
        await runner.drive()
        #expect(runner.clock.sleeperCount == 0)
      }
    }
  }

  @Test func aTimerStartedFromANonisolatedAsyncTestTicksOncePerPeriod() async {
    for _ in 0..<Self.runs {
      await withVirtualTime { runner in
        let model = await DashboardModel(clock: runner.clock)
        await runner.drive(until: .milliseconds(150_000))
        #expect(await model.refreshedAt == Self.ticks())
        await model.stop()
        await runner.drive()
        #expect(runner.clock.sleeperCount == 0)
      }
    }
  }

  @Test func aTimerStartedFromASynchronousTestTicksOncePerPeriod() throws {
    for _ in 0..<Self.runs {
      try withVirtualTime { runner in
        let model = try runner.run { await DashboardModel(clock: runner.clock) }
        runner.advance(to: .milliseconds(150_000))
        #expect(try runner.run { await model.refreshedAt } == Self.ticks())
        try runner.run { await model.stop() }
        #expect(runner.clock.sleeperCount == 0)
        #expect(runner.sleepsFromOutsideTheRun == 0)
      }
    }
  }

  /// `VirtualTimeRunner.hosting(_:)`'s example, word for word.
  @MainActor @Test func refreshesEveryThirtySecondsOnItsOwnRunner() async {
    let runner = VirtualTimeRunner()
    await runner.hosting {
      let model = DashboardModel(clock: runner.clock)  // its init starts the timer's `Task {}`
      await runner.drive(until: .milliseconds(149_999))
      #expect(model.refreshes == 4)
      await runner.drive(until: .milliseconds(150_000))
      #expect(model.refreshes == 5)
      model.stop()
    }
    #expect(runner.sleepsFromOutsideTheRun == 0)
  }

  /// A hosted body orders main-actor jobs, whatever the runner's own ordering.
  @MainActor @Test(arguments: [MainActorOrdering.onceSeen, .never])
  func aHostedTimerTicksOncePerPeriodWhateverTheOrdering(ordering: MainActorOrdering) async {
    for _ in 0..<Self.runs {
      let runner = VirtualTimeRunner(mainActorOrdering: ordering)
      await runner.hosting {
        let model = DashboardModel(clock: runner.clock)
        await runner.drive(until: .milliseconds(150_000))
        #expect(model.refreshedAt == Self.ticks())
        model.stop()
        await runner.drive()
      }
      #expect(runner.clock.sleeperCount == 0)
      #expect(runner.sleepsFromOutsideTheRun == 0)
    }
  }

  /// `withVirtualTime`'s example, word for word.
  @MainActor @Test func refreshesEveryThirtySeconds() async {
    await withVirtualTime { runner in
      let model = DashboardModel(clock: runner.clock)  // its init starts the timer's `Task {}`
      await runner.drive(until: .milliseconds(149_999))
      #expect(model.refreshes == 4)
      await runner.drive(until: .milliseconds(150_000))
      #expect(model.refreshes == 5)
      model.stop()
    }
  }
}
