// The handle of a task started on a VirtualTimeRunner: its result once it has finished, and a
// way to cancel it.
import Synchronization

/// A task started on a ``VirtualTimeRunner``.
public struct VirtualTask<Success: Sendable>: Sendable {
  final class Outcome: Sendable {
    enum State {
      case running
      case finished(Result<Success, any Error>)
    }
    let state = Mutex(State.running)
  }

  let outcome: Outcome
  let task: Task<Void, Never>

  /// The body's result once it has finished, nil while it runs.
  public var result: Result<Success, any Error>? {
    outcome.state.withLock { state in
      if case .finished(let result) = state { return result }
      return nil
    }
  }

  /// Whether the body has finished.
  public var isFinished: Bool { result != nil }

  /// Cancels the task. Its reaction runs when the runner is next driven.
  public func cancel() { task.cancel() }
}
