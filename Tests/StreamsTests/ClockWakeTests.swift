// ClockWake on a ManualClock: a call at the deadline and not before, never after a cancel, at
// once for a deadline reached, and in registration order with the sleepers of its instant.
import Streams
import StreamsTesting
import Testing

@Suite struct ClockWakeTests {
  @Test func aScheduledCallRunsAtItsDeadlineAndNotBeforeAndCountsAsASleeper() {
    let clock = ManualClock()
    let fired = Recorder<Int64>()
    let wake = ClockWake.schedule(on: clock, at: .milliseconds(500)) { fired.append(clock.now.milliseconds) }
    #expect(clock.sleeperCount == 1)
    #expect(clock.nextDeadline == .milliseconds(500))
    clock.advance(to: .milliseconds(499))
    #expect(fired.values.isEmpty)
    clock.advance(to: .milliseconds(500))
    #expect(fired.values == [500])
    #expect(clock.sleeperCount == 0)
    wake.cancel()
    clock.advance(by: .seconds(1))
    #expect(fired.values == [500])
  }

  @Test func aCancelledCallNeverRunsAndAPastDeadlineRunsAtOnce() {
    let clock = ManualClock(now: .milliseconds(100))
    let fired = Recorder<String>()
    let cancelled = ClockWake.schedule(on: clock, at: .milliseconds(200)) { fired.append("cancelled") }
    cancelled.cancel()
    #expect(clock.sleeperCount == 0)
    _ = ClockWake.schedule(on: clock, at: .milliseconds(100)) { fired.append("past") }
    #expect(fired.values == ["past"])
    clock.advance(by: .seconds(1))
    #expect(fired.values == ["past"])
  }

  @Test func scheduledCallsAndSleepersDueTogetherWakeInRegistrationOrder() throws {
    let runner = VirtualTimeRunner()
    let order = Recorder<String>()
    _ = ClockWake.schedule(on: runner.clock, at: .milliseconds(100)) { order.append("first call") }
    let sleeper = runner.start {
      try await runner.clock.sleep(until: .milliseconds(100))
      order.append("sleeper")
    }
    runner.runUntilIdle()
    _ = ClockWake.schedule(on: runner.clock, at: .milliseconds(100)) { order.append("second call") }
    runner.advance(to: .milliseconds(100))
    try runner.finish(sleeper)
    // One at a time, in registration order: the sleeper's task runs before the call set after it.
    #expect(order.values == ["first call", "sleeper", "second call"])
  }
}
