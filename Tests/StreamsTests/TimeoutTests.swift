// withTimeout in virtual time: a fast answer does not wait for the timer, a slow one is cut off
// at exactly the limit, and the caller's cancellation stays a cancellation.
import Streams
import StreamsTesting
import Testing

@Suite struct TimeoutTests {
  struct OperationFailed: Error, Equatable {}

  @Test func fastOperationReturnsAtOnceAndLeavesNoTimerBehind() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let task = runner.start {
      try await withTimeout(.seconds(10), clock: clock) {
        try await clock.sleep(for: .milliseconds(10))
        return 42
      }
    }
    runner.advance(to: .milliseconds(10))
    #expect(task.isFinished)
    #expect(clock.sleeperCount == 0)
    #expect(try runner.finish(task) == 42)
    #expect(runner.now == .milliseconds(10))
  }

  @Test func slowOperationIsCancelledAndTimesOutAtExactlyTheLimit() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let operationCancelled = Recorder<Int64>()
    let task = runner.start {
      try await withTimeout(.seconds(1), clock: clock) { () -> Int in
        do {
          try await clock.sleep(for: .seconds(5))
        } catch {
          operationCancelled.append(clock.now.milliseconds)
          throw error
        }
        return 42
      }
    }
    runner.advance(to: .milliseconds(999))
    #expect(!task.isFinished)
    runner.advance(to: .milliseconds(1_000))
    #expect(task.isFinished)
    #expect(operationCancelled.values == [1_000])
    #expect(throws: TimeoutError(duration: .seconds(1))) { try runner.finish(task) }
    #expect(clock.sleeperCount == 0)
  }

  @Test func operationErrorPassesThroughBeforeTheLimit() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let task = runner.start {
      try await withTimeout(.seconds(1), clock: clock) { () -> Int in
        try await clock.sleep(for: .milliseconds(5))
        throw OperationFailed()
      }
    }
    #expect(throws: OperationFailed()) { try runner.finish(task) }
    #expect(runner.now == .milliseconds(5))
    #expect(clock.sleeperCount == 0)
  }

  @Test func callerCancellationThrowsCancellationErrorNotTimeoutError() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let task = runner.start {
      try await withTimeout(.seconds(1), clock: clock) { () -> Int in
        try await clock.sleep(for: .seconds(5))
        return 42
      }
    }
    runner.advance(to: .milliseconds(300))
    task.cancel()
    runner.runUntilIdle()
    #expect(task.isFinished)
    #expect(throws: CancellationError.self) { try runner.finish(task) }
    #expect(runner.now == .milliseconds(300))
    #expect(clock.sleeperCount == 0)
  }

  @Test func operationIgnoringCancellationDelaysTheTimeoutErrorUntilItReturns() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let task = runner.start {
      try await withTimeout(.milliseconds(100), clock: clock) { () -> Int in
        // Cancellation-deaf: an unstructured task is not cancelled with the one awaiting it.
        await Task(inheritingExecutor: { try? await clock.sleep(for: .milliseconds(300)) }).value
        return 42
      }
    }
    #expect(throws: TimeoutError(duration: .milliseconds(100))) { try runner.finish(task) }
    #expect(runner.now == .milliseconds(300))
  }

  @Test func zeroLimitThrowsAtOnceWithoutRunningTheOperation() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let ran = Recorder<Bool>()
    let task = runner.start {
      try await withTimeout(.zero, clock: clock) { ran.append(true) }
    }
    #expect(throws: TimeoutError(duration: .zero)) { try runner.finish(task) }
    #expect(ran.values.isEmpty)
  }
}
