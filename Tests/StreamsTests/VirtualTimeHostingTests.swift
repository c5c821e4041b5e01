// A test body hosted by the runner: its own awaits complete between driving calls without moving
// time, the tasks it starts are the runner's, and a sleep from a task outside the run is reported
// instead of silently racing the clock.
import Dispatch
import Streams
import StreamsTesting
import Testing

/// An actor the test body calls directly, as a test calls a store.
actor Counter {
  private(set) var count = 0
  func increment() -> Int {
    count += 1
    return count
  }
}

@Suite struct VirtualTimeHostingTests {
  @MainActor @Test func theBodysOwnAwaitsCompleteWithoutMovingTime() async {
    await withVirtualTime { runner in
      let counter = Counter()
      #expect(await counter.increment() == 1)
      let started = Recorder<Int64>()
      let clock = runner.clock
      runner.start { started.append(clock.now.milliseconds) }
      #expect(await counter.increment() == 2)  // the body waited: the started task ran meanwhile
      #expect(started.values == [0])
      #expect(runner.now == .zero)
    }
  }

  @Test func aNonisolatedBodysAwaitsCompleteWithoutMovingTime() async {
    await withVirtualTime { runner in
      let counter = Counter()
      #expect(await counter.increment() == 1)
      #expect(await MainActor.run { 42 } == 42)
      #expect(runner.now == .zero)
    }
  }

  @Test func aSynchronousDrivingCallInTheBodySaysToAwaitTheAsyncOne() async {
    await withVirtualTime { runner in
      // The body runs on the main queue here, so main-actor code cannot run until `run` returns.
      let stall = #expect(throws: VirtualTimeStall.self) { try runner.run { await MainActor.run { 1 } } }
      #expect(stall?.drivenOnMainThread == true)
      #expect(stall?.description.contains("await runner.drive") == true)
      await runner.drive()
    }
  }

  @MainActor @Test func aTaskTheBodyStartsPrefersTheRunnersExecutor() async {
    await withVirtualTime { runner in
      let prefers = await Task { withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil } }.value
      #expect(prefers)
    }
    let outside = await Task { withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil } }.value
    #expect(!outside)
  }

  @MainActor @Test func aSleepFromATaskOutsideTheRunIsCountedAndNamedInAStall() async throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let outside = Task.detached { try? await clock.sleep(for: .seconds(1)) }
    try await clock.waitForSleepers(1)
    #expect(runner.sleepsFromOutsideTheRun == 1)
    let (never, end) = AsyncStream.makeStream(of: Int.self)
    let waiting = runner.start { for await _ in never {} }
    let stall = await #expect(throws: VirtualTimeStall.self) { try await runner.drive(waiting) }
    #expect(stall?.sleepsFromOutsideTheRun == 1)
    #expect(stall?.description.contains("1 sleep(s) on the runner's clock came from tasks outside the run") == true)
    end.finish()
    await outside.value
  }

  @MainActor @Test func aSleepOnlyATaskOfTheRunMakesIsNotCounted() async throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    try await runner.drive {
      try await clock.sleep(for: .seconds(1))
      try await withExternalWork { try await clock.sleep(for: .seconds(1)) }
    }
    #expect(runner.sleepsFromOutsideTheRun == 0)
  }

  @MainActor @Test func withVirtualTimeRecordsASleepFromOutsideTheRun() async throws {
    try await withKnownIssue {
      try await withVirtualTime { runner in
        let clock = runner.clock
        // A block the main queue runs by itself has no task: what it starts is outside the run.
        DispatchQueue.main.async { Task { try? await clock.sleep(for: .seconds(1)) } }
        try await clock.waitForSleepers(1)
        await runner.drive(until: .milliseconds(1_000))
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("came from tasks outside the run") }
    }
  }
}
