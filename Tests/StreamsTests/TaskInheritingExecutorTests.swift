// Task(inheritingExecutor:) is `Task {}` that stays on the runner: its body takes the isolation of
// the code that starts it (the main actor in a @MainActor model, an actor's own isolation in an
// actor, none elsewhere), and what it awaits off that actor is ordered by the runner.
import Streams
import StreamsTesting
import Testing

/// The doc comment's model, word for word (DocExamplesTests checks the copy).
@MainActor final class StatusModel {
  private(set) var shown: [String] = []
  private var pending: Task<Void, Never>?

  func show(_ text: String, after delay: Duration, on clock: ManualClock) {
    pending?.cancel()
    pending = Task(inheritingExecutor: {
      guard (try? await clock.sleep(for: delay)) != nil else { return }
      self.shown.append(text)  // on the main actor, as in `Task { … }`
    })
  }
}

/// Reports the isolation its tasks' bodies ran with.
actor IsolationProbe {
  private(set) var count = 0

  func bodyRunsOnThisActor() async -> Bool {
    await Task(inheritingExecutor: {
      self.count += 1  // compiles only because the body is isolated to this actor
      return #isolation === self
    }).value
  }
}

@Suite struct TaskInheritingExecutorTests {
  @MainActor @Test func theBodyOfATaskStartedOnTheMainActorRunsOnTheMainActor() async {
    let ranOnMain = await Task(inheritingExecutor: { #isolation === MainActor.shared }).value
    #expect(ranOnMain)
  }

  @MainActor @Test func aThrowingBodyStartedOnTheMainActorRunsOnTheMainActor() async throws {
    let ranOnMain = try await Task(inheritingExecutor: { () async throws -> Bool in
      try Task.checkCancellation()
      return #isolation === MainActor.shared
    }).value
    #expect(ranOnMain)
  }

  @Test func theBodyOfATaskStartedOutsideAnyActorIsNonisolated() async {
    let isolation = await Task(inheritingExecutor: { () async -> (any Actor)? in #isolation }).value
    #expect(isolation == nil)
  }

  @Test func theBodyOfATaskStartedInAnActorRunsOnThatActor() async {
    let probe = IsolationProbe()
    #expect(await probe.bodyRunsOnThisActor())
    #expect(await probe.count == 1)
  }

  @MainActor @Test func aMainActorModelsTaskIsOrderedByTheRunner() async throws {
    try await withVirtualTime { runner in
      let model = StatusModel()
      try await runner.drive { await model.show("saved", after: .milliseconds(500), on: runner.clock) }
      await runner.drive(until: .milliseconds(499))  // model.shown == []
      #expect(model.shown == [])
      await runner.drive(until: .milliseconds(500))  // model.shown == ["saved"]
      #expect(model.shown == ["saved"])
    }
  }

  @MainActor @Test func aNewerShowCancelsTheOneWaiting() async throws {
    try await withVirtualTime { runner in
      let model = StatusModel()
      try await runner.drive { await model.show("saving", after: .milliseconds(500), on: runner.clock) }
      await runner.drive(until: .milliseconds(200))
      try await runner.drive { await model.show("saved", after: .milliseconds(500), on: runner.clock) }
      await runner.drive(until: .milliseconds(699))
      #expect(model.shown == [])
      await runner.drive(until: .milliseconds(700))
      #expect(model.shown == ["saved"])
      #expect(runner.clock.sleeperCount == 0)
    }
  }
}
