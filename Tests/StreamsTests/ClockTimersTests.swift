// One timer per live clock: calls scheduled on ContinuousClock or SuspendingClock are entries in
// a heap, and one task sleeps until the earliest. Checked here on a ManualClock standing in for
// the live one (the timer only sleeps on its clock, so any clock drives it), and once for real.
import StreamsTesting
import Testing

@testable import Streams

@Suite(.timeLimit(.minutes(10))) struct ClockTimersTests {
  /// Calls made by a timer, in the order made, awaited one by one.
  final class Calls: Sendable {
    let (made, maker) = AsyncStream.makeStream(of: String.self)
    func call(_ name: String) -> @Sendable () -> Void { { [maker] in maker.yield(name) } }

    /// The next `count` calls (the suite's time limit bounds the wait).
    func next(_ count: Int) async -> [String] {
      var names: [String] = []
      for await name in made {
        names.append(name)
        if names.count == count { break }
      }
      return names
    }
  }

  @Test func manyCallsCostOneSleepingTaskAndComeInDeadlineThenSchedulingOrder() async throws {
    let clock = ManualClock()
    let timers = ClockTimers(clock: clock)
    let calls = Calls()
    for index in 0..<1_000 {
      _ = timers.schedule(at: .milliseconds(200 + Int64(index % 3)), calls.call("late \(index)"))
    }
    _ = timers.schedule(at: .milliseconds(100), calls.call("a"))
    _ = timers.schedule(at: .milliseconds(100), calls.call("b"))
    try await clock.waitForSleepers(1)
    #expect(clock.sleeperCount == 1)
    clock.advance(to: .milliseconds(100))
    #expect(await calls.next(2) == ["a", "b"])
    clock.advance(to: .milliseconds(300))
    let late = await calls.next(1_000)
    let expected = [0, 1, 2].flatMap { offset in stride(from: offset, to: 1_000, by: 3).map { "late \($0)" } }
    #expect(late == expected)
  }

  @Test func anEarlierCallIsMadeFirstAndACancelledOneNever() async throws {
    let clock = ManualClock()
    let timers = ClockTimers(clock: clock)
    let calls = Calls()
    _ = timers.schedule(at: .milliseconds(500), calls.call("at 500"))
    let cancelled = timers.schedule(at: .milliseconds(300), calls.call("cancelled"))
    try await clock.waitForSleepers(1)
    // Earlier than the task sleeps: a task sleeping until 100 takes its place.
    _ = timers.schedule(at: .milliseconds(100), calls.call("at 100"))
    if let cancelled { timers.cancel(cancelled) }
    clock.advance(to: .milliseconds(100))
    #expect(await calls.next(1) == ["at 100"])
    clock.advance(to: .milliseconds(1_000))
    #expect(await calls.next(1) == ["at 500"])
    #expect(clock.now == .milliseconds(1_000))
  }

  @Test func aDeadlineAlreadyReachedIsNotScheduled() {
    let clock = ManualClock(now: .milliseconds(50))
    let timers = ClockTimers(clock: clock)
    #expect(timers.schedule(at: .milliseconds(50)) {} == nil)
    #expect(clock.sleeperCount == 0)
  }

  @Test func aWakeOnTheContinuousClockIsMadeAtItsDeadline() async {
    let clock = ContinuousClock()
    let calls = Calls()
    let deadline = clock.now.advanced(by: .milliseconds(20))
    let madeAt = Recorder<Bool>()
    _ = ClockWake.schedule(on: clock, at: deadline) {
      madeAt.append(clock.now >= deadline)
      calls.call("made")()
    }
    #expect(await calls.next(1) == ["made"])
    #expect(madeAt.values == [true])
  }
}
