// The runner's contract: exact virtual time, quiescence before time moves, stalls reported.
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct VirtualTimeRunnerTests {
  @Test func sleepWakesExactlyAtItsDeadline() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let woke = Recorder<Int64>()
    let task = runner.start {
      try await clock.sleep(for: .milliseconds(500))
      woke.append(clock.now.milliseconds)
    }
    runner.advance(to: .milliseconds(499))
    #expect(woke.values.isEmpty)
    #expect(clock.sleeperCount == 1)
    runner.advance(to: .milliseconds(500))
    #expect(woke.values == [500])
    try runner.finish(task)
    #expect(clock.sleeperCount == 0)
    #expect(runner.pendingJobCount == 0)
  }

  @Test func childTasksAndActorsRunOnTheRunner() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let order = try runner.run {
      let log = Log()
      await withTaskGroup(of: Void.self) { group in
        for delay in [30, 10, 20] {
          group.addTask {
            try? await clock.sleep(for: .milliseconds(delay))
            await log.add("\(delay)@\(clock.now.milliseconds)")
          }
        }
      }
      return await log.entries
    }
    #expect(order == ["10@10", "20@20", "30@30"])
    #expect(runner.now == .milliseconds(30))
  }

  @Test func sleepersDueTogetherWakeInRegistrationOrder() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let order = Recorder<Int>()
    let task = runner.start {
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<5 {
          group.addTask {
            try? await clock.sleep(until: .milliseconds(100))
            order.append(index)
          }
          // Let each child register before the next is added.
          await Task.yield()
        }
      }
    }
    try runner.finish(task)
    #expect(order.values == [0, 1, 2, 3, 4])
  }

  @Test func reportsAStallInsteadOfHanging() {
    let runner = VirtualTimeRunner()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let task = runner.start { for await _ in stream {} }
    #expect(throws: VirtualTimeStall.self) { try runner.finish(task) }
    continuation.finish()
    #expect(throws: Never.self) { try runner.finish(task) }
  }

  @Test func cancellingASleeperThrowsAtOnceWithoutMovingTime() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let task = runner.start { () -> Bool in
      do {
        try await clock.sleep(for: .seconds(60))
        return false
      } catch {
        return error is CancellationError
      }
    }
    runner.runUntilIdle()
    task.cancel()
    #expect(try runner.finish(task))
    #expect(runner.now == .zero)
    #expect(clock.sleeperCount == 0)
  }
}

extension VirtualTimeRunnerTests {
  actor Spawner {
    func sleepInUnstructuredTask(_ clock: ManualClock, for delay: Int64) async -> Int64 {
      let task = Task(inheritingExecutor: { () -> Int64 in
        try? await clock.sleep(for: .milliseconds(delay))
        return clock.now.milliseconds
      })
      return await task.value
    }
  }

  @Test func unstructuredTasksStartedWithInheritingExecutorStayOnTheRunner() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let fromActor = try runner.run { await Spawner().sleepInUnstructuredTask(clock, for: 5) }
    let fromTask = try runner.run { () -> Int64 in
      let task = Task(inheritingExecutor: { () -> Int64 in
        try? await clock.sleep(for: .milliseconds(7))
        return clock.now.milliseconds
      })
      return await task.value
    }
    #expect(fromActor == 5)
    #expect(fromTask == 12)
  }
}

actor Log {
  var entries: [String] = []
  func add(_ entry: String) { entries.append(entry) }
}

extension VirtualTimeRunnerTests {
  /// What Swift 6.3.1 does, and the docs say: a plain `Task {}` started from a task on the
  /// runner keeps the runner's executor preference; `Task.detached` drops it.
  /// The detached task is awaited after the run, outside the runner: it needs the global pool,
  /// whose threads (as many as cores, two here) other tests' synchronous driving calls may hold
  /// for longer than the runner's watchdog.
  @Test func aPlainTaskKeepsTheRunnersExecutorAndADetachedOneDoesNot() async throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (plain, wokeAt, detached) = try await runner.drive { () -> (Bool, Int64, Task<Bool, Never>) in
      let plain = Task { () -> (Bool, Int64) in
        let prefers = withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil }
        try? await clock.sleep(for: .milliseconds(5))
        return (prefers, clock.now.milliseconds)
      }
      let (prefers, wokeAt) = await plain.value
      return (prefers, wokeAt, Task.detached { withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil } })
    }
    #expect(plain)
    #expect(wokeAt == 5)
    #expect(await detached.value == false)
  }
}
