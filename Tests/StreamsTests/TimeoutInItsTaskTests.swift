// withTimeout for an operation that is all its task does: it runs in the calling task, and the
// timer cancels that task through its handle. The same instants and errors as the task-racing
// form, in virtual time.
import Streams
import StreamsTesting
import Testing

@Suite struct TimeoutInItsTaskTests {
  /// Starts, on `runner`, a task that runs `operation` under a 2 s limit in itself, and records
  /// how it ended and whether the task was cancelled; returns the task's handle.
  private func start(
    on runner: VirtualTimeRunner, ended: Recorder<String>, operation: @escaping @Sendable () async throws -> Int
  ) -> CacheLoad {
    let load = CacheLoad()
    let clock = runner.clock
    runner.onRunner {
      let task = Task(inheritingExecutor: {
        let outcome: String
        do {
          let value = try await withTimeout(
            .seconds(2), clock: clock, cancellingItsTaskThrough: load, operation: operation)
          outcome = "value \(value)"
        } catch is TimeoutError {
          outcome = "timed out"
        } catch is CancellationError {
          outcome = "cancelled"
        } catch {
          outcome = "\(error)"
        }
        ended.append("\(outcome) at \(clock.now.offset.wholeMilliseconds) ms, task cancelled: \(Task.isCancelled)")
      })
      load.attach(task)
    }
    return load
  }

  @Test func aFastOperationReturnsAtOnceAndLeavesNoTimer() {
    let runner = VirtualTimeRunner()
    let ended = Recorder<String>()
    _ = start(on: runner, ended: ended) {
      try await runner.clock.sleep(for: .milliseconds(10))
      return 42
    }
    runner.advance(to: .milliseconds(10))
    #expect(ended.values == ["value 42 at 10 ms, task cancelled: false"])
    #expect(runner.clock.sleeperCount == 0)
  }

  @Test func aSlowOperationIsCancelledWithItsTaskAtExactlyTheLimit() {
    let runner = VirtualTimeRunner()
    let ended = Recorder<String>()
    _ = start(on: runner, ended: ended) {
      try await runner.clock.sleep(for: .seconds(60))
      return 1
    }
    runner.advance(to: .milliseconds(1_999))
    #expect(ended.values == [])
    runner.advance(to: .milliseconds(2_000))
    #expect(ended.values == ["timed out at 2000 ms, task cancelled: true"])
    #expect(runner.clock.sleeperCount == 0)
  }

  @Test func cancellingTheTaskBeforeTheLimitThrowsCancellationError() {
    let runner = VirtualTimeRunner()
    let ended = Recorder<String>()
    let load = start(on: runner, ended: ended) {
      try await runner.clock.sleep(for: .seconds(60))
      return 1
    }
    runner.advance(to: .milliseconds(500))
    load.cancel()
    runner.runUntilIdle()
    #expect(ended.values == ["cancelled at 500 ms, task cancelled: true"])
    #expect(runner.clock.sleeperCount == 0)
  }

  @Test func aZeroLimitThrowsAtOnceWithoutRunningTheOperation() throws {
    let runner = VirtualTimeRunner()
    let ran = Recorder<Bool>()
    let outcome = try runner.run { () -> String in
      do {
        let value = try await withTimeout(.zero, clock: runner.clock, cancellingItsTaskThrough: CacheLoad()) {
          ran.append(true)
          return 1
        }
        return "value \(value)"
      } catch is TimeoutError {
        return "timed out"
      }
    }
    #expect(outcome == "timed out")
    #expect(ran.values == [])
  }
}
