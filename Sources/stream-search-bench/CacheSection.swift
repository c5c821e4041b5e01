// The "cache" section: AsyncCache, the cost of a hit and of one load shared by many waiting callers.
import Streams

/// Measures the "cache" section.
struct CacheSection {
  let options: BenchOptions
  let stopwatch: Stopwatch

  func measure(into table: inout ResultTable) async throws {
    let calls = 100_000
    let cache = AsyncCache<String, [Int], ContinuousClock>(capacity: 1_000, clock: ContinuousClock())
    let keys = (0..<1_000).map { "key \($0)" }
    for key in keys { _ = try await cache.value(for: key) { [1, 2, 3] } }
    let hit = try await stopwatch.nanosecondsPerUnit(
      meter: .wall, size: calls, warmUpSize: calls / 10, units: Double(calls)
    ) { size in
      var hits = 0
      for index in 0..<size where try await cache.value(for: keys[index % keys.count], load: { [] }).origin == .cached {
        hits += 1
      }
      try check("cache hits", hits, equals: size)
    }
    table.append(
      ResultRow(
        section: "5 cache", name: "AsyncCache hit, caller off the actor", unit: "µs/call",
        sample: hit.scaled(by: 1e-3), target: "≤ 1"))
    for callers in [6, 600] {
      let sample = try await stopwatch.nanosecondsPerUnit(
        meter: .wall, size: callers, warmUpSize: callers, units: 1_000
      ) { size in try Self.coalescedLoad(callers: size) }
      table.append(
        ResultRow(
          section: "5 cache", name: "one coalesced load, \(callers) waiting callers",
          unit: "µs total", sample: sample, note: "virtual time: the load's 80 ms cost nothing"))
    }
  }

  /// `callers` concurrent calls for one key in virtual time: one load, the rest join it.
  static func coalescedLoad(callers: Int) throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let cache = AsyncCache<String, [Int], ManualClock>(capacity: 16, clock: clock)
    let joined = try runner.run {
      await withTaskGroup(of: CacheOrigin?.self) { group in
        for _ in 0..<callers {
          group.addTask {
            try? await cache.value(for: "taylor") {
              try await clock.sleep(for: .milliseconds(80))
              return [1, 2, 3]
            }.origin
          }
        }
        var joined = 0
        for await origin in group where origin == .joined { joined += 1 }
        return joined
      }
    }
    try check("callers that joined the load", joined, equals: callers - 1)
  }
}
