// withRetry and RetryPolicy in virtual time: each attempt at its exact instant, the attempt
// limit, the last error, and cancellation never retried.
import Streams
import StreamsTesting
import Testing

@Suite struct RetryTests {
  struct AttemptFailed: Error, Equatable { var attempt: Int }

  @Test func retriesAfterTwoSecondsOneCallAt1999msTwoAt2000ms() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let calls = Recorder<Int64>()
    let task = runner.start {
      try await withRetry(RetryPolicy(maxAttempts: 3, initialBackoff: .seconds(2)), clock: clock) {
        calls.append(clock.now.milliseconds)
        if calls.values.count == 1 { throw AttemptFailed(attempt: 1) }
        return "ok"
      }
    }
    runner.advance(to: .milliseconds(1_999))
    #expect(calls.values == [0])
    runner.advance(to: .milliseconds(2_000))
    #expect(calls.values == [0, 2_000])
    #expect(try runner.finish(task) == "ok")
    #expect(clock.sleeperCount == 0)
  }

  @Test func backoffGrowsByTheMultiplierUpToTheMaximumAndTheLastErrorIsThrown() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let calls = Recorder<Int64>()
    let policy = RetryPolicy(
      maxAttempts: 5, initialBackoff: .milliseconds(100), multiplier: 3, maxBackoff: .milliseconds(500))
    let task = runner.start { () -> Int in
      try await withRetry(policy, clock: clock) {
        calls.append(clock.now.milliseconds)
        throw AttemptFailed(attempt: calls.values.count)
      }
    }
    // Waits of 100, 300, 500 (not 900) and 500 ms.
    #expect(throws: AttemptFailed(attempt: 5)) { try runner.finish(task) }
    #expect(calls.values == [0, 100, 400, 900, 1_400])
    #expect(clock.sleeperCount == 0)
  }

  @Test func errorsThatShouldNotBeRetriedAreThrownAtOnce() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let calls = Recorder<Int>()
    let task = runner.start { () -> Int in
      try await withRetry(
        RetryPolicy(maxAttempts: 5, initialBackoff: .seconds(1)), clock: clock,
        shouldRetry: { ($0 as? AttemptFailed)?.attempt != 2 }
      ) {
        calls.append(1)
        throw AttemptFailed(attempt: calls.values.count)
      }
    }
    #expect(throws: AttemptFailed(attempt: 2)) { try runner.finish(task) }
    #expect(calls.values.count == 2)
    #expect(runner.now == .milliseconds(1_000))
  }

  @Test func cancellationErrorFromTheOperationIsNeverRetried() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let calls = Recorder<Int>()
    let task = runner.start { () -> Int in
      try await withRetry(RetryPolicy(maxAttempts: 5, initialBackoff: .seconds(1)), clock: clock) {
        calls.append(1)
        throw CancellationError()
      }
    }
    #expect(throws: CancellationError.self) { try runner.finish(task) }
    #expect(calls.values.count == 1)
    #expect(runner.now == .zero)
  }

  @Test func cancellingDuringTheBackoffStopsAtOnce() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let calls = Recorder<Int>()
    let task = runner.start { () -> Int in
      try await withRetry(RetryPolicy(maxAttempts: 5, initialBackoff: .seconds(2)), clock: clock) {
        calls.append(1)
        throw AttemptFailed(attempt: calls.values.count)
      }
    }
    runner.advance(to: .milliseconds(500))
    task.cancel()
    runner.runUntilIdle()
    #expect(task.isFinished)
    #expect(throws: CancellationError.self) { try runner.finish(task) }
    #expect(calls.values.count == 1)
    #expect(runner.now == .milliseconds(500))
    #expect(clock.sleeperCount == 0)
  }

  @Test func policyClampsExtremeSettingsInsteadOfTrapping() {
    let noAttempts = RetryPolicy(maxAttempts: 0, initialBackoff: .seconds(1))
    #expect(noAttempts.maxAttempts == 1)
    let unbounded = RetryPolicy(maxAttempts: 100, initialBackoff: .seconds(1), multiplier: 10)
    #expect(unbounded.backoff(beforeRetry: 1) == .seconds(1))
    #expect(unbounded.backoff(beforeRetry: 3) == .seconds(100))
    #expect(unbounded.backoff(beforeRetry: Int.max) == .seconds(Int64(1) << 40))
    let capped = RetryPolicy(
      maxAttempts: 3, initialBackoff: .seconds(1), multiplier: .infinity, maxBackoff: .seconds(9))
    #expect(capped.backoff(beforeRetry: 2) == .seconds(9))
    let notANumber = RetryPolicy(maxAttempts: 3, initialBackoff: .seconds(1), multiplier: .nan)
    #expect(notANumber.backoff(beforeRetry: 5) == .seconds(1))
    let negative = RetryPolicy(maxAttempts: 3, initialBackoff: .seconds(-1))
    #expect(negative.backoff(beforeRetry: 1) == .zero)
  }

  /// The operation runs on the caller's actor, so it may use the actor's state directly.
  actor Fetcher {
    var attempts = 0
    func fetch(clock: ManualClock) async throws -> Int {
      try await withRetry(RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(10)), clock: clock) {
        attempts += 1
        if attempts < 3 { throw AttemptFailed(attempt: attempts) }
        return attempts
      }
    }
  }

  @Test func operationRunsIsolatedToTheCallingActor() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let attempts = try runner.run { try await Fetcher().fetch(clock: clock) }
    #expect(attempts == 3)
    #expect(runner.now == .milliseconds(30))
  }
}
