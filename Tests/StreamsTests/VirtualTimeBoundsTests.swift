// No driving call hangs: an endless timer meets the horizon, a loop that only yields meets the
// watchdog, outside work asleep on the runner's clock is not waited for, and outside work that
// never ends is reported with what was still in flight, or no longer waited for once stopped.
import Dispatch
import Foundation
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

  @Test(.timeLimit(.minutes(10))) func stoppingTheWaitForOutsideWorkEndsAWaitInProgress() throws {
    // A watchdog far beyond the test's time limit: only the stop can end the wait.
    let runner = VirtualTimeRunner(watchdog: .seconds(600))
    let parked = Mutex<CheckedContinuation<Void, Never>?>(nil)
    let inFlight = DispatchSemaphore(value: 0)
    let task = runner.start {
      await withExternalWork {
        await withCheckedContinuation { continuation in
          parked.withLock { $0 = continuation }
          inFlight.signal()
        }
      }
      return Task.isCancelled
    }
    // Stopped from another thread once the work is in flight, as a signal's thread would: the
    // driver is then waiting for it, or about to.
    let stopper = Thread {
      _ = inFlight.wait(timeout: .now() + 10)
      runner.stopWaitingForExternalWork()
    }
    stopper.start()
    runner.runUntilIdle()
    #expect(runner.interruption == nil, "the wait ended without a stall")
    task.cancel()
    // The outside work is still in flight; nothing waits for it any more.
    parked.withLock { $0?.resume() }
    #expect(try runner.finish(task) == true)
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
