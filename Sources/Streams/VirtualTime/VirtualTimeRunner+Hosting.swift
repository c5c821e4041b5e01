// The test itself as part of the run: tasks that a test body starts, directly or through the
// main-actor code it calls (a view model's `Task {}` in its init), prefer the runner's executor,
// so what they await off the main actor is ordered by the runner like everything else.
extension VirtualTimeRunner {
  /// Runs `body`, a test's body, as part of the run, and returns what it returns.
  ///
  /// Useful for testing `@MainActor` view models that start their own tasks: a refresh timer
  /// started in the model's `init`, a search started by a property's `didSet`. Written the way
  /// apps write them, with `Task { … }`, those tasks take the executor preference of the task
  /// that starts them, here the test's own. Inside `hosting`, that is the runner's executor: the
  /// nonisolated async functions they call (`clock.sleep`) and the default actors they use run
  /// on the runner, in one order with the main actor's jobs, and a timer's loop registers its
  /// next sleep before time moves on. Outside it, those tasks have no preference; what they await
  /// off the main actor runs on the global pool, which no runner orders.
  /// `withVirtualTime` (StreamsTesting) runs its async body this way.
  ///
  /// ```swift
  /// @MainActor @Test func refreshesEveryThirtySecondsOnItsOwnRunner() async {
  ///   let runner = VirtualTimeRunner()
  ///   await runner.hosting {
  ///     let model = DashboardModel(clock: runner.clock)  // its init starts the timer's `Task {}`
  ///     await runner.drive(until: .milliseconds(149_999))
  ///     #expect(model.refreshes == 4)
  ///     await runner.drive(until: .milliseconds(150_000))
  ///     #expect(model.refreshes == 5)
  ///     model.stop()
  ///   }
  /// }
  /// ```
  ///
  /// Time moves only in driving calls, which `body` makes with `await` (`drive(until:)`,
  /// `drive(for:)`, `drive()`, `drive(_:)`). Between them, whenever `body` waits, the jobs
  /// queued on the runner run, on the main queue between the main actor's jobs (as a driving
  /// call runs them): an `await` on an actor or a nonisolated function completes without a
  /// driving call, and a task started with ``start(_:)`` begins. So main-actor jobs are ordered
  /// while `body` runs, whatever ``mainActorOrdering`` says; the process must run its main queue,
  /// as Swift Testing does.
  ///
  /// - **Element:** the value `body` returns.
  /// - **Failure:** what `body` throws.
  /// - **Cancellation:** `body` runs in the caller's task, and sees its cancellation.
  ///
  /// > Important: Tasks started from outside `body` and outside the runner's tasks (a
  /// > `DispatchQueue.main.async` block, a `Task.detached`) are not part of the run: ordering
  /// > them would need a hook into the global executor that Swift does not make public. Their
  /// > sleeps on ``clock`` are counted in ``sleepsFromOutsideTheRun``.
  ///
  /// > Note: The synchronous driving calls (`advance`, `finish`) block the main queue when
  /// > `body` makes them, so main-actor code cannot run meanwhile: use the `async` forms.
  public func hosting<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    noteMainActorSeen()
    executor.beginHosting()
    defer { executor.endHosting() }
    return try await withTaskExecutorPreference(executor, isolation: isolation) {
      try await InheritedExecutor.$preferred.withValue(executor) { try await body() }
    }
  }

  /// How many sleeps on ``clock`` came from tasks that are not part of the run: tasks that do not
  /// prefer the runner's executor, so that the way to and from their sleep runs on the global
  /// pool and the runner may move time before they get there. Zero in a test that is exact.
  ///
  /// Such a task was started outside ``hosting(isolation:_:)``, outside `withVirtualTime`'s
  /// body (StreamsTesting), and outside the runner's tasks: by a `@MainActor` test that drives a
  /// runner it created itself, by a block the main queue runs (`DispatchQueue.main.async`), or
  /// by `Task.detached`. `withVirtualTime` records a test issue when this is not zero; a
  /// ``VirtualTimeStall`` says it too. Sleeps inside ``withExternalWork(_:)`` are not counted:
  /// that work is outside the run by design.
  public var sleepsFromOutsideTheRun: Int { executor.sleepsFromOutsideTheRun }
}
