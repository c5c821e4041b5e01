// @MainActor code under the runner: a debounced view model with a cache, driven from a
// nonisolated test and from a @MainActor test, gives the same trace every time.
import Streams
import StreamsTesting
import Testing

/// The lesson as an app writes it: a main-actor model that waits 500 ms after the last
/// keystroke on its clock, then asks a cache whose load takes 100 ms.
@MainActor final class DebouncedSearchModel {
  private(set) var results: [String] = []
  private(set) var trace: [String] = []
  private let clock: ManualClock
  private let cache: AsyncCache<String, [String], ManualClock>
  private var pending: Task<Void, Never>?

  init(clock: ManualClock) {
    self.clock = clock
    cache = AsyncCache(capacity: 16, clock: clock)
  }

  func queryChanged(_ query: String) {
    trace.append("typed \(query)@\(clock.now.milliseconds)")
    pending?.cancel()
    // A plain `Task {}`, as apps write it: it runs on the main actor and, started from a task
    // on the runner, keeps the runner's executor preference (checked in VirtualTimeRunnerTests).
    pending = Task { @MainActor in
      do {
        try await self.clock.sleep(for: .milliseconds(500))
        let clock = self.clock
        let answer = try await self.cache.value(for: query) {
          try await clock.sleep(for: .milliseconds(100))
          return [query.uppercased()]
        }
        self.show(answer.value, for: query, origin: answer.origin)
      } catch {
        self.trace.append("cancelled \(query)@\(self.clock.now.milliseconds)")
      }
    }
  }

  private func show(_ items: [String], for query: String, origin: CacheOrigin) {
    results = items
    trace.append("\(origin.rawValue) \(query)@\(clock.now.milliseconds)")
  }
}

@Suite struct VirtualTimeMainActorTests {
  static let expectedTrace = [
    "typed t@0", "typed ta@100", "cancelled t@100", "typed tay@200", "cancelled ta@200",
    "loaded tay@800", "typed tay@900", "cached tay@1400",
  ]

  /// Types "t", "ta", "tay" 100 ms apart, then "tay" again after the answer.
  static func typeSession(_ runner: VirtualTimeRunner, _ model: DebouncedSearchModel) throws {
    try runner.run { await model.queryChanged("t") }
    runner.advance(to: .milliseconds(100))
    try runner.run { await model.queryChanged("ta") }
    runner.advance(to: .milliseconds(200))
    try runner.run { await model.queryChanged("tay") }
    runner.advance(to: .milliseconds(799))
    #expect(try runner.run { await model.results }.isEmpty)
    runner.advance(to: .milliseconds(800))
    #expect(try runner.run { await model.results } == ["TAY"])
    runner.advance(to: .milliseconds(900))
    try runner.run { await model.queryChanged("tay") }
    runner.advance(to: .milliseconds(1_500))
  }

  @Test func aMainActorModelDrivenFromANonisolatedTestIsDeterministic() throws {
    for _ in 0..<20 {
      try withVirtualTime { runner in
        let model = try runner.run { await DebouncedSearchModel(clock: runner.clock) }
        try Self.typeSession(runner, model)
        #expect(try runner.run { await model.trace } == Self.expectedTrace)
        #expect(runner.clock.sleeperCount == 0)
      }
    }
  }

  @Test func aPlainRunnerStartsOrderingMainActorJobsAtTheFirstRun() throws {
    for _ in 0..<20 {
      let runner = VirtualTimeRunner()
      let model = try runner.run { await DebouncedSearchModel(clock: runner.clock) }
      try Self.typeSession(runner, model)
      #expect(try runner.run { await model.trace } == Self.expectedTrace)
    }
  }

  @MainActor @Test func aMainActorModelDrivenFromAMainActorTestIsDeterministic() async throws {
    for _ in 0..<20 {
      try await withVirtualTime { runner in
        let model = DebouncedSearchModel(clock: runner.clock)
        try await runner.drive { await model.queryChanged("t") }
        await runner.drive(until: .milliseconds(100))
        try await runner.drive { await model.queryChanged("ta") }
        await runner.drive(until: .milliseconds(200))
        try await runner.drive { await model.queryChanged("tay") }
        await runner.drive(until: .milliseconds(799))
        #expect(model.results.isEmpty)
        await runner.drive(until: .milliseconds(800))
        #expect(model.results == ["TAY"])
        await runner.drive(until: .milliseconds(900))
        try await runner.drive { await model.queryChanged("tay") }
        await runner.drive(for: .milliseconds(600))
        #expect(model.trace == Self.expectedTrace)
        #expect(runner.clock.sleeperCount == 0)
      }
    }
  }

  @MainActor @Test func drivingSynchronouslyOnTheMainThreadReportsWhyMainActorCodeCannotRun() {
    let runner = VirtualTimeRunner()
    let stall = #expect(throws: VirtualTimeStall.self) {
      try runner.run { await MainActor.run { 1 } }
    }
    #expect(stall?.reason == .nothingToRun)
    #expect(stall?.drivenOnMainThread == true)
    #expect(stall?.description.contains("await runner.drive") == true)
  }
}
