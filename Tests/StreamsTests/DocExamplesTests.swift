// swift-format-ignore-file
// The examples below are copies of the docs, word for word, so the formatter must not reflow them.
// Every code example in Streams' and StreamsTesting's doc comments, the README and the Streams
// docs, copied here word for word and run. `everyDocExampleIsCopiedHere` fails when an example
// changes without its copy here, so an example cannot drift from code that compiles.
import Foundation
import LineIO
import Streams
import Synchronization
import StreamsTesting
import TestSupport
import Testing

@Suite struct DocExamplesTests {
  @Test func virtualTimeRunnerAndReadme() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (input, feed) = AsyncStream.makeStream(of: String.self)
    let seen = Recorder<String>()               // StreamsTesting
    let task = runner.start {
      for try await text in input.debounce(for: .milliseconds(300), clock: clock) { seen.append(text) }
    }
    feed.yield("tay")
    runner.advance(to: .milliseconds(299))      // seen.values == []
    #expect(seen.values == [])
    runner.advance(to: .milliseconds(300))      // seen.values == ["tay"]
    #expect(seen.values == ["tay"])
    feed.finish()
    try runner.finish(task)
  }

  @MainActor @Test func searchesHalfASecondAfterTheLastKeystroke() async throws {
    let runner = VirtualTimeRunner()
    let model = SearchModel(clock: runner.clock)
    try await runner.drive { await model.queryChanged("tay") }
    await runner.drive(until: .milliseconds(499)); #expect(model.results.isEmpty)
    await runner.drive(until: .milliseconds(500)); #expect(model.results == ["tay"])
  }

  @Test func manualClock() async throws {
    let clock = ManualClock()
    let woke = Recorder<Int64>()
    let task = Task {
      try await clock.sleep(for: .milliseconds(500))
      woke.append(clock.now.milliseconds)
    }
    try await clock.waitForSleepers(1)       // StreamsTesting: the sleep has registered
    clock.advance(by: .milliseconds(499))   // the task still sleeps
    #expect(woke.values.isEmpty)
    clock.advance(by: .milliseconds(1))     // now it wakes
    try await task.value                    // woke.values == [500]
    #expect(woke.values == [500])
    #expect(clock.sleeperCount == 0)
  }

  @Test func waitForSleepers() async throws {
    let clock = ManualClock()
    let task = Task { try await clock.sleep(for: .milliseconds(500)) }
    try await clock.waitForSleepers(1)
    clock.advance(by: .milliseconds(500))
    try await task.value
    #expect(clock.now == .milliseconds(500))
  }

  @Test func immediateClock() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(2))
    // clock.now == .zero.advanced(by: .seconds(2))
    #expect(clock.now == .zero.advanced(by: .seconds(2)))
  }

  @Test func recorder() throws {
    let runner = VirtualTimeRunner()
    let seen = Recorder<String>()
    try runner.run { seen.append("tay") }
    #expect(seen.values == ["tay"])
  }

  @Test func emitsAtTheDeadline() throws {
    try withVirtualTime { runner in
      let clock = runner.clock
      let woke = Recorder<Int64>()
      let task = runner.start {
        try await clock.sleep(for: .milliseconds(500))
        woke.append(clock.now.milliseconds)
      }
      runner.advance(to: .milliseconds(499)); #expect(woke.values.isEmpty)
      runner.advance(to: .milliseconds(500)); #expect(woke.values == [500])
      try runner.finish(task)
    }
  }

  @Test func rateLimiterInVirtualTime() throws {
    let runner = VirtualTimeRunner()
    let limiter = RateLimiter(permits: 20, per: .seconds(60), clock: runner.clock)
    try runner.run { for _ in 0..<20 { try await limiter.acquire() } }   // all at 0 ms
    try runner.run { try await limiter.acquire() }
    // runner.now == .milliseconds(60_000)
    #expect(runner.now == .milliseconds(60_000))
  }

  @Test func rateLimiterTellsAWaiterWhenItsPermitComes() throws {
    let runner = VirtualTimeRunner()
    let limiter = RateLimiter(permits: 1, per: .seconds(60), clock: runner.clock)
    let expected = Mutex<ManualClock.Instant?>(nil)
    try runner.run {
      try await limiter.acquire()                               // free: onWait is not called
      #expect(expected.withLock { $0 } == nil)
      try await limiter.acquire { at in expected.withLock { $0 = at } }   // waits a minute
    }
    // expected == .milliseconds(60_000), and so is runner.now
    #expect(expected.withLock { $0 } == .milliseconds(60_000))
    #expect(runner.now == .milliseconds(60_000))
  }

  @Test func ratePermitsReportOnlyTheCallerThatWaits() throws {
    let runner = VirtualTimeRunner()
    let permits: any RatePermits<ManualClock.Instant> =
      RateLimiter(permits: 2, per: .seconds(1), clock: runner.clock)
    let waits = Mutex<[ManualClock.Instant]>([])
    try runner.run {
      for _ in 0..<3 { try await permits.acquire { at in waits.withLock { $0.append(at) } } }
    }
    // waits == [.milliseconds(1_000)]: only the third caller waited, and heard when at once
    #expect(waits.withLock { $0 } == [.milliseconds(1_000)])
  }

  @Test func cancellationSignalStopsABlockedRead() throws {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)                          // a writer that never writes
    let stop = try CancellationSignal()
    var reader = BlockingLineReader(fileDescriptor: ends[0], stoppingOn: stop)
    stop.signal()                            // e.g. from the queue that observes SIGINT
    // reader.next() throws LineInputError.stopped at once, though nothing was written
    #expect(throws: LineInputError.stopped) { try reader.next() }
    for end in ends { close(end) }
  }

  @Test func fileDescriptorWriter() throws {
    signal(SIGPIPE, SIG_IGN)                     // else a closed pipe kills the process
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    let writer = FileDescriptorWriter(fileDescriptor: ends[1])
    try writer.write(Array("one line\n".utf8))   // returns once the kernel holds every byte
    close(ends[0])                               // the reader goes away
    // the next write throws OutputError.closed: for a tool's standard output, a quiet end
    #expect(throws: OutputError.closed) { try writer.write(Array("more\n".utf8)) }
    close(ends[1])
  }

  @Test func splitMix64() {
    var random = SplitMix64(seed: 2026)
    let gaps = (0..<100).map { _ in 40 + random.below(141) }   // the same 100 gaps on every run
    let word = ["tay", "taylor", "swift"].randomElement(using: &random)
    var again = SplitMix64(seed: 2026)
    #expect(gaps == (0..<100).map { _ in 40 + again.below(141) })
    #expect(gaps.allSatisfy { (40...180).contains($0) })
    #expect(word == ["tay", "taylor", "swift"].randomElement(using: &again))
  }

  @Test func retryPolicy() {
    let policy = RetryPolicy(maxAttempts: 4, initialBackoff: .milliseconds(200), maxBackoff: .seconds(1))
    // waits 200 ms, 400 ms and 800 ms between the 4 attempts; a 5th wait would be 1 s, not 1.6 s
    #expect(policy.maxAttempts == 4)
    #expect(policy.maxBackoff == .seconds(1))
  }

  @Test func withRetryInVirtualTime() {
    let calls = Recorder<Int>()
    @Sendable func flakyFetch() async throws -> Int {
      calls.append(calls.values.count + 1)
      if calls.values.count == 1 { throw Flaky() }
      return 1
    }
    let runner = VirtualTimeRunner()
    let task = runner.start {
      try await withRetry(RetryPolicy(maxAttempts: 2, initialBackoff: .seconds(2)),
                          clock: runner.clock) { try await flakyFetch() }
    }
    runner.advance(to: .milliseconds(1_999))   // one call so far
    #expect(calls.values == [1])
    runner.advance(to: .milliseconds(2_000))   // the second call happens now
    #expect(calls.values == [1, 2])
    #expect(task.isFinished)
  }

  @Test func asyncCacheInVirtualTime() throws {
    let runner = VirtualTimeRunner()
    let cache = AsyncCache<String, Int, ManualClock>(capacity: 2, timeToLive: .seconds(1),
                                                     clock: runner.clock)
    try runner.run { _ = try await cache.value(for: "a") { 1 } }       // loaded at 0 ms
    runner.advance(to: .milliseconds(999))
    let hit = try runner.run { try await cache.value(for: "a") { 2 }.origin }   // .cached
    runner.advance(to: .milliseconds(1_000))
    let miss = try runner.run { try await cache.value(for: "a") { 2 }.origin }  // .loaded (expired)
    #expect(hit == .cached)
    #expect(miss == .loaded)
  }

  @Test func withTimeoutInVirtualTime() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let value = try runner.run {
      try await withTimeout(.seconds(10), clock: clock) {
        try await clock.sleep(for: .milliseconds(10)); return 42
      }
    }
    // value == 42, runner.now == .milliseconds(10), clock.sleeperCount == 0
    #expect(value == 42)
    #expect(runner.now == .milliseconds(10))
    #expect(clock.sleeperCount == 0)
  }

  @Test func lineSplitter() {
    var splitter = LineSplitter()
    var lines: [InputLine] = []
    splitter.append(Array("a\r\nb".utf8), into: &lines)  // lines: [1: "a"]
    #expect(lines.map(\.content) == [.text("a")])
    splitter.finish(into: &lines)                        // lines: [1: "a", 2: "b"]
    #expect(lines.map(\.content) == [.text("a"), .text("b")])
    #expect(lines.map(\.number) == [1, 2])
  }
}

private struct Flaky: Error {}

/// The model of `VirtualTimeRunner.drive(until:)`'s example: it shows the query it was given
/// 500 ms after the last change.
@MainActor final class SearchModel {
  private(set) var results: [String] = []
  private let clock: ManualClock
  private var pending: Task<Void, Never>?

  init(clock: ManualClock) { self.clock = clock }

  func queryChanged(_ query: String) {
    pending?.cancel()
    pending = Task { @MainActor in
      guard (try? await self.clock.sleep(for: .milliseconds(500))) != nil else { return }
      self.results = [query]
    }
  }
}

extension DocExamplesTests {
  @Test func everyDocExampleIsCopiedHere() async throws {
    let (checked, missing) = try await DocExamples.uncopied(
      in: [
        "README.md", "CONTRIBUTING.md", "docs/streams.md", "Sources/Streams",
        "Sources/StreamsTesting", "Sources/LineIO",
      ],
      copiesIn: "Tests/StreamsTests")
    #expect(missing == [], "examples with no copy in Tests/StreamsTests")
    #expect(checked >= 32)   // every block of the documents above
  }
}
