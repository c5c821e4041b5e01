// SE-0417 does not promise that unstructured tasks inherit a task executor preference. Swift
// 6.3.1 passes it to a plain `Task {}` started from a task (VirtualTimeRunnerTests checks), but
// this package does not rely on that: every unstructured task in it is started through these
// initialisers, which read the runner's executor from a task-local, so a `Task {}` started
// inside a virtual-time run cannot escape to the global pool and race the runner.

/// The task executor that tasks started by a ``VirtualTimeRunner`` prefer, carried in a
/// task-local value because task-locals, unlike executor preferences, are copied into
/// unstructured tasks.
public enum InheritedExecutor {
  @TaskLocal static var preferred: (any TaskExecutor)?

  /// The executor an unstructured task started here should prefer: the runner's inside a
  /// virtual-time run, nil (the global concurrent executor) elsewhere.
  public static var current: (any TaskExecutor)? { preferred }
}

extension Task where Failure == Never {
  /// Starts an unstructured task that stays on the current virtual-time runner, if any.
  ///
  /// Use it wherever `Task { … }` would be written in code that may run in virtual time: outside
  /// a ``VirtualTimeRunner`` it behaves exactly like `Task { … }`.
  @discardableResult
  public init(inheritingExecutor operation: @escaping @Sendable () async -> Success) {
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
  /// Starts an unstructured throwing task that stays on the current virtual-time runner, if any.
  ///
  /// Use it wherever `Task { … }` would be written in code that may run in virtual time: outside
  /// a ``VirtualTimeRunner`` it behaves exactly like `Task { … }`.
  @discardableResult
  public init(inheritingExecutor operation: @escaping @Sendable () async throws -> Success) {
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
