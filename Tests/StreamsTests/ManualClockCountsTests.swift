// What a ManualClock counts: sleepers are tasks asleep and scheduled calls together, and the two
// are told apart; three searches in flight under withTimeout are three tasks and three calls.
import Streams
import StreamsTesting
import Testing

@Suite struct ManualClockCountsTests {
  @Test func threeSearchesUnderATimeoutAreThreeTasksAsleepAndThreeScheduledCalls() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let searches = (0..<3).map { _ in
      runner.start {
        try await withTimeout(.seconds(10), clock: clock) { try await clock.sleep(for: .milliseconds(400)) }
      }
    }
    runner.runUntilIdle()
    #expect(clock.sleeperCount == 6)
    #expect(clock.sleepingTaskCount == 3)
    #expect(clock.scheduledCallCount == 3)
    runner.advance(to: .milliseconds(400))
    for search in searches { try runner.finish(search) }
    #expect(clock.sleeperCount == 0)
    #expect(clock.sleepingTaskCount == 0)
    #expect(clock.scheduledCallCount == 0)
  }

  @Test func aCancelledSleepAndACancelledTimeoutLeaveNothingCounted() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let search = runner.start {
      try await withTimeout(.seconds(10), clock: clock) { try await clock.sleep(for: .seconds(1)) }
    }
    runner.runUntilIdle()
    #expect(clock.sleepingTaskCount == 1)
    #expect(clock.scheduledCallCount == 1)
    search.cancel()
    runner.runUntilIdle()
    #expect(clock.sleepingTaskCount == 0)
    #expect(clock.scheduledCallCount == 0)
  }

  @Test func aStallSaysHowManyTasksSleepAndHowManyCallsAreScheduled() throws {
    let runner = VirtualTimeRunner(horizon: .seconds(1))
    let clock = runner.clock
    let (never, _) = AsyncStream.makeStream(of: Int.self)
    let task = runner.start {
      try await withTimeout(.seconds(60), clock: clock) { for await _ in never {} }
    }
    let stall = #expect(throws: VirtualTimeStall.self) { try runner.finish(task) }
    #expect(stall?.sleeperCount == 1)
    #expect(stall?.scheduledCallCount == 1)
    #expect(stall?.description.contains("0 task(s) asleep and 1 scheduled call(s) (next at 60,000 ms)") == true)
    task.cancel()
  }
}

@Suite struct ManualClockTaskValueTests {
  @Test func awaitsTheValueOfATaskTheTestWokeInTime() async throws {
    let clock = ManualClock()
    let task = Task {
      try? await clock.sleep(for: .milliseconds(500))
      return clock.now.milliseconds
    }
    try await clock.waitForSleepers(1)
    clock.advance(by: .milliseconds(500))
    let woke = try await clock.value(of: task)  // 500; without the advance, TaskValueTimeout
    #expect(woke == 500)
  }

  @Test func aTaskNobodyWakesFailsAfterTheTimeoutSayingWhatToAdvanceTo() async throws {
    let clock = ManualClock()
    let task = Task { try await clock.sleep(for: .milliseconds(1_500)) }
    try await clock.waitForSleepers(1)
    let error = await #expect(throws: TaskValueTimeout.self) {
      try await clock.value(of: task, timeout: .milliseconds(50))
    }
    #expect(error?.sleepers == 1)
    #expect(error?.scheduledCalls == 0)
    #expect(error?.nextDeadline == .milliseconds(1_500))
    #expect(
      error?.description
        == "The task did not finish within 50 ms of real time, and was cancelled. The clock stands at 0 ms "
        + "with 1 task(s) asleep and 0 scheduled call(s), the next due at 1,500 ms. Nothing moves a "
        + "ManualClock but `advance`: advance it to 1,500 ms (or drive the code with a VirtualTimeRunner, "
        + "whose `finish` moves time itself).")
    // The task was cancelled, so it ends, and leaves nothing asleep.
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test func aThrowingTasksErrorIsThrown() async {
    struct Refused: Error {}
    let clock = ManualClock()
    let task = Task<Int, any Error> { throw Refused() }
    await #expect(throws: Refused.self) { try await clock.value(of: task) }
  }

  @Test func aTaskWaitingForSomethingElseIsSaidToWaitForSomethingElse() async {
    let clock = ManualClock()
    let (never, end) = AsyncStream.makeStream(of: Int.self)
    let task = Task { for await _ in never {} }
    let error = await #expect(throws: TaskValueTimeout.self) {
      try await clock.value(of: task, timeout: .milliseconds(20))
    }
    #expect(error?.description.contains("Nothing waits on this clock") == true)
    end.finish()
    await task.value
  }
}

@Suite struct TimeInMessagesTests {
  @Test func durationsAndInstantsAreWholeMillisecondsGroupedByThousands() {
    #expect(Duration.zero.millisecondsDescription == "0 ms")
    #expect(Duration.milliseconds(749).millisecondsDescription == "749 ms")
    #expect(Duration.milliseconds(2_749).millisecondsDescription == "2,749 ms")
    #expect(Duration.seconds(3_600).millisecondsDescription == "3,600,000 ms")
    #expect(Duration.microseconds(250).millisecondsDescription == "0.25 ms")
    #expect(Duration.microseconds(1_500).millisecondsDescription == "1.5 ms")
    #expect(Duration.nanoseconds(999_999_999).millisecondsDescription == "1,000 ms")
    #expect(Duration.milliseconds(-1_200).millisecondsDescription == "-1,200 ms")
    #expect(ManualClock.Instant.milliseconds(749).description == "749 ms")
    #expect(ManualClock.Instant.milliseconds(2_749).description == "2,749 ms")
  }

  @Test func aTimeoutAndAStallWriteTimeTheSameWay() {
    #expect(TimeoutError(duration: .milliseconds(300)).description == "The operation did not finish within 300 ms.")
    let stall = VirtualTimeRunner(horizon: .seconds(2))
    let clock = stall.clock
    let loop = stall.start {
      while true { try await clock.sleep(for: .milliseconds(750)) }
    }
    let error = #expect(throws: VirtualTimeStall.self) { try stall.finish(loop) }
    #expect(
      error?.description.hasPrefix(
        "Virtual time stopped at 1,500 ms: the next deadline is more than the horizon (2,000 ms)") == true,
      "\(String(describing: error))")
    loop.cancel()
  }
}
