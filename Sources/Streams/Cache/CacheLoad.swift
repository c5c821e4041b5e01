// The task a load runs in, handed to the load itself: a time limit inside the load can then stop
// the whole load by cancelling that task, with no task of its own to race.
import Synchronization

/// Cancels the task one load runs in: an ``AsyncCache`` load started by
/// ``AsyncCache/request(_:load:answer:)``, or a load run the same way without a cache.
///
/// The load gets it before its task's handle exists; ``attach(_:)`` supplies the handle, and a
/// ``cancel()`` requested before that is applied then.
@usableFromInline package final class CacheLoad: Sendable {
  @usableFromInline let state = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

  /// A handle with no task yet.
  @inlinable package init() {}

  /// Runs `body` in a new task (on the caller's executor preference), handing it the task's own
  /// handle; returns the task. The one way a load and its handle are made, for the cache's loads
  /// and for loads run the same way without one.
  @inlinable package static func start(_ body: @escaping @Sendable (CacheLoad) async -> Void) -> Task<Void, Never> {
    let handle = CacheLoad()
    let task = Task(inheritingExecutor: { await body(handle) })
    handle.attach(task)
    return task
  }

  /// Runs `load` in a new task, as ``start(_:)`` does, and hands its result to `deliver` in that
  /// task: the one way a load's outcome is caught, for the cache's loads and for loads run the
  /// same way without one.
  @inlinable package static func run<Loaded: Sendable>(
    _ load: @escaping @Sendable (CacheLoad) async throws -> Loaded,
    then deliver: @escaping @Sendable (Result<Loaded, any Error>) -> Void
  ) -> Task<Void, Never> {
    start { handle in
      let result: Result<Loaded, any Error>
      do {
        result = .success(try await load(handle))
      } catch {
        result = .failure(error)
      }
      deliver(result)
    }
  }

  /// Cancels the load's task, now or as soon as it is attached: the load then ends as it
  /// decides (typically by throwing), and whoever waits for it gets that. Calling it again does
  /// nothing more.
  @inlinable package func cancel() {
    let task = state.withLock { state -> Task<Void, Never>? in
      state.cancelled = true
      return state.task
    }
    task?.cancel()
  }

  /// Names the task the load runs in; cancels it at once if ``cancel()`` came first.
  @inlinable package func attach(_ task: Task<Void, Never>) {
    let cancelled = state.withLock { state -> Bool in
      state.task = task
      return state.cancelled
    }
    if cancelled { task.cancel() }
  }
}
