// `Task {}` for code that may run in virtual time: the same task, isolation included, that also
// stays on the virtual-time runner it was started from, which a plain `Task {}` is not promised
// to do (see InheritedExecutor).

extension Task where Failure == Never {
  /// Starts an unstructured task exactly as `Task { … }` does, and keeps it on the current
  /// virtual-time runner, if any.
  ///
  /// Use it wherever `Task { … }` would be written in code that may run in virtual time. Like
  /// `Task { … }`, the body takes the isolation of the code that starts it: started in a
  /// `@MainActor` method it runs on the main actor, started in an actor it runs on that actor,
  /// started elsewhere it is nonisolated. Inside a ``VirtualTimeRunner`` run, what the body does
  /// off its actor (a nonisolated `clock.sleep`, a default actor's methods) runs on the runner,
  /// ordered with everything else; outside one the task is exactly `Task { … }`.
  ///
  /// ```swift
  /// @MainActor final class StatusModel {
  ///   private(set) var shown: [String] = []
  ///   private var pending: Task<Void, Never>?
  ///
  ///   func show(_ text: String, after delay: Duration, on clock: ManualClock) {
  ///     pending?.cancel()
  ///     pending = Task(inheritingExecutor: {
  ///       guard (try? await clock.sleep(for: delay)) != nil else { return }
  ///       self.shown.append(text)  // on the main actor, as in `Task { … }`
  ///     })
  ///   }
  /// }
  /// ```
  ///
  /// In a test, start it from a runner task and it is ordered with everything else:
  ///
  /// ```swift
  /// try await withVirtualTime { runner in
  ///   let model = StatusModel()
  ///   try await runner.drive { await model.show("saved", after: .milliseconds(500), on: runner.clock) }
  ///   await runner.drive(until: .milliseconds(499))  // model.shown == []
  ///   await runner.drive(until: .milliseconds(500))  // model.shown == ["saved"]
  /// }
  /// ```
  ///
  /// - **Element:** the task's value is the body's result.
  /// - **Cancellation:** cancelling the returned task cancels the body as `Task { … }` does.
  @discardableResult
  public init(
    @_inheritActorContext inheritingExecutor operation: sending @escaping @isolated(any) () async -> Success
  ) {
    // Outside a runner, a plain task: `Task(executorPreference: nil)` still gives the task a
    // preference record, and with one, every executor switch and enqueue of the task takes its
    // status lock to read it (perf: 8-19 % of the operators' time over LineReader).
    guard let preferred = InheritedExecutor.preferred else {
      self.init(operation: operation)
      return
    }
    self.init(executorPreference: preferred, operation: operation)
  }
}

extension Task where Failure == any Error {
  /// Starts an unstructured throwing task exactly as `Task { … }` does, and keeps it on the
  /// current virtual-time runner, if any.
  ///
  /// The body takes the isolation of the code that starts it, as with the non-throwing form:
  /// on the main actor when started in a `@MainActor` method, nonisolated when started outside
  /// any actor.
  ///
  /// - **Element:** the task's value is the body's result.
  /// - **Failure:** the task's value throws what the body threw.
  /// - **Cancellation:** cancelling the returned task cancels the body as `Task { … }` does.
  @discardableResult
  public init(
    @_inheritActorContext inheritingExecutor operation: sending @escaping @isolated(any) () async throws -> Success
  ) {
    // As in the non-throwing form: no preference record outside a runner.
    guard let preferred = InheritedExecutor.preferred else {
      self.init(operation: operation)
      return
    }
    self.init(executorPreference: preferred, operation: operation)
  }
}
