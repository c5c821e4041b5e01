// AsyncCache.storedValues: all hits answer at once and count, one miss or expired entry answers
// nil and changes nothing (no hit counted, no entry marked used).
import Streams
import StreamsTesting
import Testing

@Suite struct AsyncCacheStoredValuesTests {
  typealias Cache = AsyncCache<String, String, ManualClock>

  /// A cache holding "a" → "A", "b" → "B", "c" → "C", stored at 0 ms in that order.
  static func filledCache(runner: VirtualTimeRunner, capacity: Int = 3, timeToLive: Duration? = nil) throws -> Cache {
    let cache = Cache(capacity: capacity, timeToLive: timeToLive, clock: runner.clock)
    try runner.run {
      for key in ["a", "b", "c"] { _ = try await cache.value(for: key) { key.uppercased() } }
    }
    return cache
  }

  @Test func allStoredKeysAnswerInTheOrderAskedAndCountAsHits() throws {
    let runner = VirtualTimeRunner()
    let cache = try Self.filledCache(runner: runner)
    let values = try runner.run { cache.storedValues(for: ["c", "a", "c"]) }
    #expect(values == ["C", "A", "C"])
    #expect(try runner.run { cache.statistics.hits } == 3)
    // Used entries move to the front: "b" is now the least recently used.
    #expect(try runner.run { cache.keysByRecency } == ["c", "a", "b"])
  }

  @Test func oneMissingKeyAnswersNilAndChangesNothing() throws {
    let runner = VirtualTimeRunner()
    let cache = try Self.filledCache(runner: runner)
    let values = try runner.run { cache.storedValues(for: ["a", "zzz"]) }
    #expect(values == nil)
    #expect(try runner.run { cache.statistics.hits } == 0)
    #expect(try runner.run { cache.keysByRecency } == ["c", "b", "a"])
  }

  @Test func anExpiredEntryIsAMissAtItsExpiryAndNotAMillisecondBefore() throws {
    let runner = VirtualTimeRunner()
    let cache = try Self.filledCache(runner: runner, timeToLive: .milliseconds(500))
    runner.advance(to: .milliseconds(499))
    #expect(try runner.run { cache.storedValues(for: ["a", "b"]) } == ["A", "B"])
    runner.advance(to: .milliseconds(500))
    #expect(try runner.run { cache.storedValues(for: ["a", "b"]) } == nil)
    #expect(try runner.run { cache.statistics.hits } == 2)
  }

  @Test func noKeysAnswerAnEmptyList() throws {
    let runner = VirtualTimeRunner()
    let cache = try Self.filledCache(runner: runner)
    #expect(try runner.run { cache.storedValues(for: []) } == [])
  }
}
