// An answer read from the disk tier expires in memory by when it was fetched, not by when it was
// read: the time to live is the answer's, whichever tier holds it.
import Foundation
import Pipeline
import SQLiteStorage
import Streams
import Synchronization
import TestSupport
import Testing

/// A wall clock `base` milliseconds after 1970 plus the virtual time of the clock it follows, so a
/// replay's searches read the stored stamps at the calendar time the run has reached.
final class FollowingWallClock: WallClock {
  private let state: Mutex<(base: Int64, clock: ManualClock?)>

  init(base: Int64) { state = Mutex((base, nil)) }

  func follow(_ clock: ManualClock, from base: Int64) { state.withLock { $0 = (base, clock) } }

  var millisecondsSinceEpoch: Int64 {
    state.withLock { $0.base + ($0.clock?.now.offset.wholeMilliseconds ?? 0) }
  }

  func sleep(for duration: Duration) async throws {
    guard let clock = state.withLock({ $0.clock }) else { return }
    try await clock.sleep(for: duration)
  }
}

@Suite struct StoredAnswerExpiryTests {
  @Test func aStoredAnswerFiftyMinutesOldExpiresInMemoryTenMinutesLater() async throws {
    let fetchedAt: Int64 = 1_700_000_000_000
    let wall = FollowingWallClock(base: fetchedAt)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stored-answer-expiry-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = SQLiteStore.open(directory: directory, wallClock: wall) { line in
      Issue.record("unexpected report: \(line)")
    }
    // An earlier run stored every category's answer for "tay" at `fetchedAt`.
    for category in Category.defaults {
      let key = StoreKey(source: "stub", term: "tay", scope: category.rawValue, limit: 25, country: "US")
      store.save(
        [category: [SearchItem(id: 7, trackName: "Stored \(category.rawValue)")]],
        fetchedAt: store.wallClock.millisecondsSinceEpoch, for: key)
    }
    await store.flush()

    var configuration = PipelineConfiguration()
    configuration.cacheTimeToLive = .seconds(3_600)
    configuration.store = store
    // This run starts 50 minutes later; the first search (at 300 ms) reads the disk.
    let keys = [
      Key(0, "tay"), Key(1_000, ""),
      Key(599_000, "tay"), Key(599_500, ""),  // searched at 599,300 ms: still fresh in memory
      Key(600_000, "tay"),  // searched at 600,300 ms: 60 min + 300 ms after the fetch, expired
    ]
    let (log, source) = try replay(keys, configuration: configuration) { clock in
      wall.follow(clock, from: fetchedAt + 50 * 60_000)
      return StubSource(latency: .milliseconds(5), clock: clock)
    }
    // Read at 300 ms from disk, expiring in memory at 600,000 ms (fetched + ttl on this run's
    // clock): a hit at 599,300 ms, and at 600,300 ms neither memory nor disk is fresh.
    #expect(source.requests.count == Category.defaults.count, "\(log.lines)")
    #expect(source.requests.map(\.term) == Array(repeating: "tay", count: Category.defaults.count))
    guard case .summary(let summary) = log.events.last?.kind else {
      Issue.record("expected the summary last, got \(log.lines)")
      return
    }
    #expect(summary.diskHits == Category.defaults.count, "\(log.lines)")
    #expect(summary.cacheHits == Category.defaults.count, "\(log.lines)")
  }
}
