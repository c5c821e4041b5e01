// RateLimiter in virtual time: the sliding window to the millisecond, FIFO order, and what a
// cancelled waiter gives back.
import Streams
import StreamsTesting
import Testing

@Suite struct RateLimiterTests {
  /// Starts a task that acquires a permit and records "<name>@<ms>", then lets it queue up.
  static func startWaiter(
    _ name: String, _ limiter: RateLimiter<ManualClock>, _ runner: VirtualTimeRunner, _ log: Recorder<String>
  ) -> VirtualTask<Void> {
    let clock = runner.clock
    let task = runner.start {
      try await limiter.acquire()
      log.append("\(name)@\(clock.now.milliseconds)")
    }
    runner.runUntilIdle()
    return task
  }

  @Test func twentyCallsProceedAtOnceAndTheTwentyFirstWaitsUntilExactlySixtySeconds() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let limiter = RateLimiter(permits: 20, per: .seconds(60), clock: clock)
    let log = Recorder<String>()
    try runner.run {
      for index in 1...20 {
        try await limiter.acquire()
        log.append("\(index)@\(clock.now.milliseconds)")
      }
    }
    #expect(log.values == (1...20).map { "\($0)@0" })
    let twentyFirst = Self.startWaiter("21", limiter, runner, log)
    runner.advance(to: .milliseconds(59_999))
    #expect(!twentyFirst.isFinished)
    #expect(clock.sleeperCount == 1)
    runner.advance(to: .milliseconds(60_000))
    #expect(twentyFirst.isFinished)
    #expect(log.values.last == "21@60000")
    #expect(clock.sleeperCount == 0)
  }

  @Test func permitsFreeExactlyOneWindowAfterEachWasGranted() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let limiter = RateLimiter(permits: 2, per: .seconds(1), clock: clock)
    let log = Recorder<String>()
    try runner.run { try await limiter.acquire() }
    runner.advance(to: .milliseconds(500))
    try runner.run { try await limiter.acquire() }
    runner.advance(to: .milliseconds(600))
    // The window holds grants at 0 and 500 ms: they free at 1,000 and 1,500 ms.
    let third = Self.startWaiter("third", limiter, runner, log)
    let fourth = Self.startWaiter("fourth", limiter, runner, log)
    try runner.finish(third)
    try runner.finish(fourth)
    #expect(log.values == ["third@1000", "fourth@1500"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func waitersProceedInTheOrderTheyCalled() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let limiter = RateLimiter(permits: 2, per: .seconds(1), clock: clock)
    let log = Recorder<String>()
    try runner.run {
      try await limiter.acquire()
      try await limiter.acquire()
    }
    let waiters = ["a", "b", "c", "d", "e"].map { Self.startWaiter($0, limiter, runner, log) }
    // Only the head of the line sleeps on the clock; the others wait for it to move up.
    #expect(clock.sleeperCount == 1)
    for waiter in waiters { try runner.finish(waiter) }
    #expect(log.values == ["a@1000", "b@1000", "c@2000", "d@2000", "e@3000"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancelledWaiterGivesItsPlaceBackToThoseBehindIt() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let limiter = RateLimiter(permits: 1, per: .seconds(1), clock: clock)
    let log = Recorder<String>()
    try runner.run { try await limiter.acquire() }
    let first = Self.startWaiter("a", limiter, runner, log)
    let second = Self.startWaiter("b", limiter, runner, log)
    let third = Self.startWaiter("c", limiter, runner, log)
    second.cancel()
    runner.runUntilIdle()
    #expect(throws: CancellationError.self) { try runner.finish(second) }
    #expect(runner.now == .zero)
    try runner.finish(first)
    try runner.finish(third)
    // "c" takes the permit "b" would have had, at 2 s instead of 3 s.
    #expect(log.values == ["a@1000", "c@2000"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancelledHeadOfTheLinePassesItsTurnToTheNextWaiter() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let limiter = RateLimiter(permits: 1, per: .seconds(1), clock: clock)
    let log = Recorder<String>()
    try runner.run { try await limiter.acquire() }
    let head = Self.startWaiter("a", limiter, runner, log)
    let next = Self.startWaiter("b", limiter, runner, log)
    head.cancel()
    runner.runUntilIdle()
    #expect(throws: CancellationError.self) { try runner.finish(head) }
    #expect(runner.now == .zero)
    #expect(clock.sleeperCount == 1)
    try runner.finish(next)
    #expect(log.values == ["b@1000"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func alreadyCancelledCallerThrowsWithoutTakingAPermit() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let limiter = RateLimiter(permits: 1, per: .seconds(1), clock: clock)
    let cancelledCall = runner.start {
      withUnsafeCurrentTask { $0?.cancel() }
      try await limiter.acquire()
    }
    #expect(throws: CancellationError.self) { try runner.finish(cancelledCall) }
    // The permit is still free.
    try runner.run { try await limiter.acquire() }
    #expect(runner.now == .zero)
    #expect(clock.sleeperCount == 0)
  }
}
