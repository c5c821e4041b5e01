// No driving call hangs: an endless timer meets the horizon, a loop that only yields meets the
// watchdog, outside work asleep on the runner's clock is not waited for, and outside work that
// never ends is reported with what was still in flight.
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct VirtualTimeBoundsTests {
  @Test func anEndlessTimerStopsAtTheHorizonInsteadOfSpinning() throws {
    let runner = VirtualTimeRunner(horizon: .seconds(60))
    let clock = runner.clock
    let ticks = Recorder<Int64>()
    let task = runner.start {
      while true {
        try await clock.sleep(for: .seconds(1))
        ticks.append(clock.now.milliseconds)
      }
    }
    let stall = #expect(throws: VirtualTimeStall.self) { try runner.finish(task) }
    #expect(stall?.reason == .horizonReached(.seconds(60)))
    #expect(stall?.sleeperCount == 1)
    #expect(stall?.nextDeadline == .milliseconds(61_000))
    #expect(stall?.description.contains("timer loop that never ends") == true)
    #expect(ticks.values.count == 60)
    task.cancel()
    #expect(throws: CancellationError.self) { try runner.finish(task) }
    #expect(clock.sleeperCount == 0)
  }

  @Test func aLoopThatOnlyYieldsMeetsTheWatchdogAndTheNextFinishReportsIt() throws {
    let runner = VirtualTimeRunner(watchdog: .milliseconds(200))
    let task = runner.start {
      while !Task.isCancelled { await Task.yield() }
    }
    runner.advance(to: .milliseconds(10))
    #expect(runner.interruption?.reason == .watchdogFired(.milliseconds(200)))
    #expect(runner.interruption.map { $0.pendingJobCount > 0 } == true)
    task.cancel()
    let earlier = #expect(throws: VirtualTimeStall.self) { try runner.finish(task) }
    #expect(earlier?.reason == .watchdogFired(.milliseconds(200)))
    #expect(runner.interruption == nil)
    try runner.finish(task)
  }

  @Test func outsideWorkAsleepOnTheRunnersClockIsNotWaitedFor() throws {
    let runner = VirtualTimeRunner(watchdog: .seconds(10))
    let clock = runner.clock
    let answeredAt = try runner.run {
      try await withExternalWork {
        try await clock.sleep(for: .milliseconds(80))
        return clock.now.milliseconds
      }
    }
    #expect(answeredAt == 80)
  }

  @Test func outsideWorkThatNeverEndsIsReportedWithWhatWasInFlight() throws {
    let runner = VirtualTimeRunner(watchdog: .milliseconds(200))
    let parked = Mutex<CheckedContinuation<Void, Never>?>(nil)
    let task = runner.start {
      await withExternalWork {
        await withCheckedContinuation { continuation in parked.withLock { $0 = continuation } }
      }
    }
    let stall = #expect(throws: VirtualTimeStall.self) { try runner.finish(task) }
    #expect(stall?.reason == .watchdogFired(.milliseconds(200)))
    #expect(stall?.externalWorkInFlight == 1)
    #expect(stall?.description.contains("outside work in flight: 1") == true)
    parked.withLock { $0?.resume() }
    try runner.finish(task)
  }

  @Test func withVirtualTimeTurnsAnEarlyStopIntoATestIssue() {
    withKnownIssue {
      withVirtualTime(watchdog: .milliseconds(200)) { runner in
        let task = runner.start { while !Task.isCancelled { await Task.yield() } }
        runner.runUntilIdle()
        task.cancel()
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("Virtual time stopped at") }
    }
  }
}

@Suite struct WaitForSleepersTests {
  // Waiting until the sleep has registered is DocExamplesTests.manualClock.

  @Test func givesUpAfterItsTimeoutSayingWhatItFound() async {
    let clock = ManualClock()
    let error = await #expect(throws: SleeperWaitTimeout.self) {
      try await clock.waitForSleepers(1, timeout: .milliseconds(50))
    }
    #expect(error?.found == 0)
    #expect(error?.description.contains("Expected 1 sleeper(s)") == true)
  }
}
