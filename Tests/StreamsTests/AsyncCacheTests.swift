// AsyncCache in virtual time: hits and misses, coalescing of loads in flight, exact expiry,
// least-recently-used eviction, failures, and what cancelling a waiter does to a shared load.
import Streams
import StreamsTesting
import Testing

@Suite struct AsyncCacheTests {
  typealias Cache = AsyncCache<String, String, ManualClock>

  struct LoadFailed: Error, Equatable {}

  /// A load that records each call and answers "<key>#<call number>" after `latency`.
  static func load(
    _ key: String, _ calls: Recorder<String>, clock: ManualClock, latency: Duration = .zero
  ) -> @Sendable () async throws -> String {
    return {
      calls.append(key)
      let number = calls.values.count
      if latency > .zero { try await clock.sleep(for: latency) }
      return "\(key)#\(number)"
    }
  }

  /// A load that answers "a" after 100 ms, recording each call (in `calls`, if given) and each
  /// cancellation of its wait (in `cancelled`).
  static func slowLoadOfA(
    clock: ManualClock, calls: Recorder<String>? = nil, cancelled: Recorder<Bool>
  ) -> @Sendable () async throws -> String {
    return {
      calls?.append("a")
      do {
        try await clock.sleep(for: .milliseconds(100))
      } catch {
        cancelled.append(true)
        throw error
      }
      return "a"
    }
  }

  @Test func sameKeyTwiceLoadsOnce() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, clock: clock)
    let calls = Recorder<String>()
    let answers = try runner.run {
      [
        try await cache.value(for: "a", load: Self.load("a", calls, clock: clock)),
        try await cache.value(for: "a", load: Self.load("a", calls, clock: clock)),
      ]
    }
    #expect(answers.map(\.origin) == [.loaded, .cached])
    #expect(answers.map(\.value) == ["a#1", "a#1"])
    #expect(calls.values == ["a"])
    let statistics = try runner.run { cache.statistics }
    #expect(statistics.hits == 1 && statistics.loads == 1 && statistics.joins == 0)
  }

  @Test func twoKeysLoadTwice() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, clock: clock)
    let calls = Recorder<String>()
    let origins = try runner.run {
      [
        try await cache.value(for: "a", load: Self.load("a", calls, clock: clock)).origin,
        try await cache.value(for: "b", load: Self.load("b", calls, clock: clock)).origin,
      ]
    }
    #expect(origins == [.loaded, .loaded])
    #expect(calls.values == ["a", "b"])
    #expect(try runner.run { cache.count } == 2)
  }

  @Test func sixConcurrentCallersShareOneLoad() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, clock: clock)
    let calls = Recorder<String>()
    let answers = try runner.run {
      try await withThrowingTaskGroup(of: CacheAnswer<String>.self) { group in
        for _ in 0..<6 {
          group.addTask {
            try await cache.value(
              for: "q", load: Self.load("q", calls, clock: clock, latency: .milliseconds(100)))
          }
        }
        var answers: [CacheAnswer<String>] = []
        for try await answer in group { answers.append(answer) }
        return answers
      }
    }
    #expect(calls.values == ["q"])
    #expect(answers.map(\.value) == Array(repeating: "q#1", count: 6))
    #expect(answers.filter { $0.origin == .loaded }.count == 1)
    #expect(answers.filter { $0.origin == .joined }.count == 5)
    #expect(runner.now == .milliseconds(100))
    let statistics = try runner.run { cache.statistics }
    #expect(statistics.loads == 1 && statistics.joins == 5)
    #expect(clock.sleeperCount == 0)
  }

  @Test func anExpiredEntryStaysAvailableAsStaleWhenItsReloadFails() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, timeToLive: .seconds(1), clock: clock)
    let calls = Recorder<String>()
    let first = try runner.run { try await cache.value(for: "a", load: Self.load("a", calls, clock: clock)).value }
    #expect(first == "a#1")
    runner.advance(to: .milliseconds(1_000))
    let failed = try runner.run { () -> Bool in
      do {
        _ = try await cache.value(for: "a") { throw LoadFailed() }
        return false
      } catch {
        return error is LoadFailed
      }
    }
    #expect(failed)
    #expect(try runner.run { cache.staleValue(for: "a") } == "a#1")
    #expect(try runner.run { cache.staleValue(for: "b") } == nil)
    // A successful reload replaces the stale entry.
    let reloaded = try runner.run { try await cache.value(for: "a", load: Self.load("a", calls, clock: clock)) }
    #expect(reloaded == CacheAnswer(value: "a#2", origin: .loaded))
    #expect(try runner.run { cache.staleValue(for: "a") } == "a#2")
    #expect(try runner.run { cache.count } == 1)
  }

  @Test func entryExpiresExactlyAtItsTimeToLiveCountedFromTheLoadsEnd() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, timeToLive: .seconds(1), clock: clock)
    let calls = Recorder<String>()
    let load = Self.load("a", calls, clock: clock, latency: .milliseconds(50))
    // Stored when the load finishes, at 50 ms: a hit until 1,049 ms, a miss from 1,050 ms.
    #expect(try runner.run { try await cache.value(for: "a", load: load).origin } == .loaded)
    #expect(runner.now == .milliseconds(50))
    runner.advance(to: .milliseconds(1_049))
    let hit = try runner.run { try await cache.value(for: "a", load: load) }
    #expect(hit == CacheAnswer(value: "a#1", origin: .cached))
    runner.advance(to: .milliseconds(1_050))
    let task = runner.start { try await cache.value(for: "a", load: load) }
    runner.runUntilIdle()
    #expect(calls.values == ["a", "a"])
    #expect(try runner.finish(task) == CacheAnswer(value: "a#2", origin: .loaded))
    #expect(try runner.run { cache.statistics.expirations } == 1)
    #expect(clock.sleeperCount == 0)
  }

  @Test func evictsTheLeastRecentlyUsedNotTheLeastRecentlyInserted() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 2, clock: clock)
    let calls = Recorder<String>()
    let origins = try runner.run { () -> [CacheOrigin] in
      var origins: [CacheOrigin] = []
      for key in ["a", "b", "a", "c", "a", "b"] {
        origins.append(try await cache.value(for: key, load: Self.load(key, calls, clock: clock)).origin)
      }
      return origins
    }
    // "a" was inserted first but used again before "c" arrived, so "b" is the one evicted.
    #expect(origins == [.loaded, .loaded, .cached, .loaded, .cached, .loaded])
    #expect(calls.values == ["a", "b", "c", "b"])
    let (statistics, keys) = try runner.run { (cache.statistics, cache.keysByRecency) }
    #expect(statistics.evictions == 2)
    #expect(keys == ["b", "a"])
  }

  @Test func failuresAreNotCachedAndReachEveryWaiter() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, clock: clock)
    let calls = Recorder<Int>()
    let failing: @Sendable () async throws -> String = {
      calls.append(1)
      try await clock.sleep(for: .milliseconds(10))
      throw LoadFailed()
    }
    let outcomes = try runner.run {
      await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<3 {
          group.addTask {
            do {
              _ = try await cache.value(for: "a", load: failing)
              return false
            } catch {
              return error is LoadFailed
            }
          }
        }
        return await group.reduce(into: [Bool]()) { $0.append($1) }
      }
    }
    #expect(outcomes == [true, true, true])
    #expect(calls.values.count == 1)
    #expect(try runner.run { cache.count } == 0)
    let retry = try runner.run { try await cache.value(for: "a") { "fine" } }
    #expect(retry == CacheAnswer(value: "fine", origin: .loaded))
    #expect(try runner.run { cache.statistics.loads } == 2)
  }

  @Test func cancelledWaiterStopsAtOnceWithoutCancellingTheOthersLoad() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, clock: clock)
    let calls = Recorder<String>()
    let loadCancelled = Recorder<Bool>()
    let load = Self.slowLoadOfA(clock: clock, calls: calls, cancelled: loadCancelled)
    // The cancelled caller is the one that started the load.
    let starter = runner.start { try await cache.value(for: "a", load: load) }
    runner.runUntilIdle()
    let joiner = runner.start { try await cache.value(for: "a", load: load) }
    runner.runUntilIdle()
    starter.cancel()
    runner.runUntilIdle()
    #expect(throws: CancellationError.self) { try runner.finish(starter) }
    #expect(runner.now == .zero)
    #expect(try runner.finish(joiner) == CacheAnswer(value: "a", origin: .joined))
    #expect(runner.now == .milliseconds(100))
    #expect(calls.values == ["a"])
    #expect(loadCancelled.values.isEmpty)
    #expect(try runner.run { cache.count } == 1)
    #expect(clock.sleeperCount == 0)
  }

  @Test func lastWaiterLeavingCancelsTheLoad() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, clock: clock)
    let loadCancelled = Recorder<Bool>()
    let load = Self.slowLoadOfA(clock: clock, cancelled: loadCancelled)
    let first = runner.start { try await cache.value(for: "a", load: load) }
    runner.runUntilIdle()
    let second = runner.start { try await cache.value(for: "a", load: load) }
    runner.runUntilIdle()
    first.cancel()
    runner.runUntilIdle()
    #expect(loadCancelled.values.isEmpty)
    second.cancel()
    runner.runUntilIdle()
    #expect(loadCancelled.values == [true])
    #expect(throws: CancellationError.self) { try runner.finish(first) }
    #expect(throws: CancellationError.self) { try runner.finish(second) }
    #expect(runner.now == .zero)
    #expect(clock.sleeperCount == 0)
    // The abandoned load is forgotten: the next call starts a new one.
    let again = try runner.run { try await cache.value(for: "a") { "b" } }
    #expect(again == CacheAnswer(value: "b", origin: .loaded))
  }

  @Test func resultArrivingAfterTheLastWaiterLeftIsNotStored() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, clock: clock)
    let finished = Recorder<Bool>()
    // A load that ignores cancellation and answers anyway.
    let stubborn: @Sendable () async throws -> String = {
      try? await clock.sleep(for: .milliseconds(100))
      finished.append(true)
      return "late"
    }
    let waiter = runner.start { try await cache.value(for: "a", load: stubborn) }
    runner.runUntilIdle()
    waiter.cancel()
    runner.runUntilIdle()
    #expect(throws: CancellationError.self) { try runner.finish(waiter) }
    #expect(finished.values == [true])
    #expect(try runner.run { cache.count } == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test func removeAllEmptiesTheCacheAndKeepsTheCounters() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, clock: clock)
    let calls = Recorder<String>()
    let origins = try runner.run { () -> [CacheOrigin] in
      let first = try await cache.value(for: "a", load: Self.load("a", calls, clock: clock)).origin
      cache.removeAll()
      let count = cache.count
      let second = try await cache.value(for: "a", load: Self.load("a", calls, clock: clock)).origin
      return count == 0 ? [first, second] : []
    }
    #expect(origins == [.loaded, .loaded])
    #expect(try runner.run { cache.statistics.loads } == 2)
  }

  @Test func zeroCapacityStoresNothingButStillCoalesces() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 0, clock: clock)
    let calls = Recorder<String>()
    let load = Self.load("a", calls, clock: clock, latency: .milliseconds(5))
    let origins = try runner.run {
      async let first = cache.value(for: "a", load: load).origin
      async let second = cache.value(for: "a", load: load).origin
      return try await [first, second].sorted { $0.rawValue < $1.rawValue }
    }
    #expect(origins == [.joined, .loaded])
    #expect(try runner.run { cache.count } == 0)
    _ = try runner.run { try await cache.value(for: "a", load: load) }
    #expect(calls.values == ["a", "a"])
  }

  @Test func recencyExpiryAndEvictionMatchASimpleModelOverManyRandomCalls() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 5, timeToLive: .milliseconds(7), clock: clock)
    let calls = Recorder<String>()
    // A fixed linear congruential sequence: the same "random" calls on every run.
    var seed: UInt64 = 42
    var steps: [(key: String, pause: Int64)] = []
    for _ in 0..<2_000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      steps.append(("k\((seed >> 33) % 9)", Int64((seed >> 20) % 3)))
    }
    let (origins, recency, statistics) = try runner.run {
      [steps] () -> ([CacheOrigin], [String], CacheStatistics) in
      var origins: [CacheOrigin] = []
      for step in steps {
        try await clock.sleep(for: .milliseconds(step.pause))
        origins.append(try await cache.value(for: step.key, load: Self.load(step.key, calls, clock: clock)).origin)
      }
      return (origins, cache.keysByRecency, cache.statistics)
    }
    // The model: (key, stored at) most recently used first; expired entries are dropped only
    // when looked up, and count towards the capacity until then.
    var model: [(key: String, storedAt: Int64)] = []
    var expected: [CacheOrigin] = []
    var now: Int64 = 0
    var (expirations, evictions) = (0, 0)
    for step in steps {
      now += step.pause
      if let index = model.firstIndex(where: { $0.key == step.key }) {
        let entry = model.remove(at: index)
        if now < entry.storedAt + 7 {
          expected.append(.cached)
          model.insert(entry, at: 0)
          continue
        }
        expirations += 1
      }
      expected.append(.loaded)
      model.insert((step.key, now), at: 0)
      if model.count > 5 {
        model.removeLast()
        evictions += 1
      }
    }
    // Name the first call that differs rather than print 2,000 origins.
    let firstDifference = zip(origins, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    #expect(firstDifference == nil, "call \(firstDifference ?? -1) (\(steps[firstDifference ?? 0].key)) differs")
    #expect(origins.count == expected.count)
    #expect(recency == model.map(\.key))
    #expect(statistics.expirations == expirations && statistics.evictions == evictions)
    #expect(expirations > 0 && evictions > 0 && expected.contains(.cached))
  }

  @Test func aDatedLoadExpiresAtItsObtainedInstantPlusTheTimeToLive() throws {
    // A value another tier kept since 50 min before now, with a time to live of an hour, read at
    // 50 min: a hit until 59:59.999 and a miss at exactly 60:00 on the cache's clock.
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, timeToLive: .seconds(3_600), clock: clock)
    let readAt = Duration.seconds(50 * 60)
    runner.advance(to: .milliseconds(3_000_000))
    let first = try runner.run {
      cache.immediateValue(for: "a") { ("kept", obtainedAt: clock.now.advanced(by: .zero - readAt)) }
    }
    #expect(first == CacheAnswer(value: "kept", origin: .loaded))
    runner.advance(to: .milliseconds(3_599_999))
    let hit = try runner.run { try await cache.value(for: "a") { "reloaded" } }
    #expect(hit == CacheAnswer(value: "kept", origin: .cached))
    runner.advance(to: .milliseconds(3_600_000))
    let miss = try runner.run { try await cache.value(for: "a") { "reloaded" } }
    #expect(miss == CacheAnswer(value: "reloaded", origin: .loaded))
  }

  @Test func aDatedLoadNeverLivesLongerThanAnUndatedOne() throws {
    // An instant after the load finished (a calendar that moved back) counts as the finish.
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = Cache(capacity: 4, timeToLive: .seconds(1), clock: clock)
    _ = try runner.run {
      cache.immediateValue(for: "a") { ("a", obtainedAt: clock.now.advanced(by: .seconds(60))) }
    }
    runner.advance(to: .milliseconds(999))
    #expect(try runner.run { try await cache.value(for: "a") { "b" }.origin } == .cached)
    runner.advance(to: .milliseconds(1_000))
    #expect(try runner.run { try await cache.value(for: "a") { "b" }.origin } == .loaded)
  }
}
