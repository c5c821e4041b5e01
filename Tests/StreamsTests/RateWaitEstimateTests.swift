// RateLimiter.acquire(onWait:) and withRetry(until:) in virtual time: a waiter hears when its
// permit is expected, and that is when it gets it; a retry that cannot start before its deadline
// is not made.
import Streams
import TestSupport
import Testing

@Suite struct RateWaitEstimateTests {
  @Test func everyWaiterHearsTheInstantItsPermitComesAndGetsItThen() throws {
    // Two permits per second, taken at 0 and 400 ms; five more callers at 500 ms.
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let limiter = RateLimiter(permits: 2, per: .seconds(1), clock: clock)
    let heard = Recorder<String>()
    let granted = Recorder<String>()
    try runner.run { try await limiter.acquire(onWait: { _ in heard.append("first") }) }
    runner.advance(to: .milliseconds(400))
    try runner.run { try await limiter.acquire() }
    runner.advance(to: .milliseconds(500))
    var tasks: [VirtualTask<Void>] = []
    for name in ["a", "b", "c", "d", "e"] {
      tasks.append(
        runner.start {
          try await limiter.acquire { expected in heard.append("\(name) \(expected.milliseconds)") }
          granted.append("\(name) \(clock.now.milliseconds)")
        })
      runner.runUntilIdle()
    }
    // A permit free at once is not waited for, so "first" was never heard.
    #expect(heard.values == ["a 1000", "b 1400", "c 2000", "d 2400", "e 3000"])
    for task in tasks { try runner.finish(task) }
    #expect(granted.values == ["a 1000", "b 1400", "c 2000", "d 2400", "e 3000"])
  }

  @Test func aRetryWhoseBackoffReachesTheDeadlineIsNotMadeAndTheLastErrorIsThrown() throws {
    struct Failed: Error, Equatable { var attempt: Int }
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let calls = Recorder<Int64>()
    let task = runner.start {
      try await withRetry(
        RetryPolicy(maxAttempts: 5, initialBackoff: .seconds(1)), clock: clock, until: .milliseconds(2_500)
      ) { () async throws -> Int in
        calls.append(clock.now.milliseconds)
        throw Failed(attempt: calls.values.count)
      }
    }
    // Attempts at 0 and 1,000; the 2 s backoff would end at 3,000, past 2,500.
    #expect(throws: Failed(attempt: 2)) { try runner.finish(task) }
    #expect(calls.values == [0, 1_000])
    #expect(runner.now == .milliseconds(1_000))
    #expect(clock.sleeperCount == 0)
  }
}
