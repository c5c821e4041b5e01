// SE-0417 does not promise that unstructured tasks inherit a task executor preference. Swift
// 6.3.1 passes it to a plain `Task {}` started from a task (VirtualTimeRunnerTests checks), but
// this package does not rely on that: every unstructured task in it is started through
// `Task(inheritingExecutor:)`, which reads the runner's executor from this task-local, so a task
// started inside a virtual-time run cannot escape to the global pool and race the runner.

/// The task executor that tasks started by a ``VirtualTimeRunner`` prefer, carried in a
/// task-local value because task-locals, unlike executor preferences, are copied into
/// unstructured tasks.
enum InheritedExecutor {
  /// The runner's executor inside a virtual-time run; nil (the global concurrent executor)
  /// elsewhere.
  @TaskLocal static var preferred: (any TaskExecutor)?
}
