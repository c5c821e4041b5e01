// The async driving calls: the same steps as advance/runUntilIdle/finish/run, made from a thread
// of their own while the caller suspends, so a `@MainActor` test leaves the main actor free to
// run the model's jobs between the runner's.
import Foundation

extension VirtualTimeRunner {
  /// Like ``advance(to:)``, suspending the caller instead of blocking its thread.
  ///
  /// Useful in a `@MainActor` test: the main actor runs the model's jobs, in order with the
  /// runner's, while the runner moves time; afterwards the test reads the model directly.
  ///
  /// > Important: Call into the model from a runner task (`runner.drive { await … }`), or from a
  /// > test body that ``hosting(isolation:_:)`` runs (`withVirtualTime`'s async body is one).
  /// > A `Task {}` the model starts then keeps the runner's executor preference, so the
  /// > nonisolated async functions it calls (`clock.sleep`, an actor's methods) run on the
  /// > runner. Started from a test that is not hosted, they run on the global pool, which the
  /// > runner does not order (``sleepsFromOutsideTheRun`` counts their sleeps).
  ///
  /// ```swift
  /// @MainActor @Test func searchesHalfASecondAfterTheLastKeystroke() async throws {
  ///   let runner = VirtualTimeRunner()
  ///   let model = SearchModel(clock: runner.clock)
  ///   try await runner.drive { await model.queryChanged("tay") }
  ///   await runner.drive(until: .milliseconds(499)); #expect(model.results.isEmpty)
  ///   await runner.drive(until: .milliseconds(500)); #expect(model.results == ["tay"])
  /// }
  /// ```
  public func drive(until instant: ManualClock.Instant) async {
    await onDriverThread { self.advance(to: instant) }
  }

  /// Like ``advance(by:)``, suspending the caller instead of blocking its thread.
  public func drive(for duration: Duration) async {
    await onDriverThread { self.advance(by: duration) }
  }

  /// Like ``runUntilIdle()``, suspending the caller instead of blocking its thread.
  public func drive() async {
    await onDriverThread { self.runUntilIdle() }
  }

  /// Like ``finish(_:)``, suspending the caller instead of blocking its thread.
  public func drive<Result: Sendable>(_ task: VirtualTask<Result>) async throws -> Result {
    try await onDriverThread { Swift.Result { try self.finish(task) } }.get()
  }

  /// Like ``run(_:)``, suspending the caller instead of blocking its thread.
  @discardableResult
  public func drive<Result: Sendable>(
    _ body: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    try await drive(start(body))
  }

  /// Runs `work` on a new thread and resumes the caller with its result. A thread of its own,
  /// not the cooperative pool, since the driving calls block.
  /// Being async, the caller may be main-actor code: main-actor jobs are ordered from now on
  /// (``MainActorOrdering/onceSeen``). While `work` runs, its steps alone run the runner's jobs,
  /// also when the runner hosts the caller (``hosting(isolation:_:)``).
  private func onDriverThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    noteMainActorSeen()
    executor.beginDriving()
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread { [executor] in
        let result = work()
        executor.endDriving()
        continuation.resume(returning: result)
      }
    }
  }
}
