// One caller of AsyncCache waiting for a load in flight. It is resumed either by the load's
// result or, at once, by its own task's cancellation — whichever comes first; the lock makes
// sure exactly one of them resumes it.
import Synchronization

/// A caller suspended until a shared load answers, or until it is cancelled.
///
/// @inlinable throughout so that it is specialised with AsyncCache (see there). Its continuation
/// is unsafe rather than checked (a checked one allocates per wait): `state` already guarantees
/// exactly one resumption.
@usableFromInline
final class LoadWaiter<Value: Sendable>: Sendable {
  @usableFromInline typealias Continuation = UnsafeContinuation<Value, any Error>

  @usableFromInline
  enum State {
    /// Created, continuation not yet registered.
    case idle
    case waiting(Continuation)
    /// Answered before registering (the load finished first): registration returns at once.
    case answered(Result<Value, any Error>)
    /// Cancelled (before or while waiting); a later answer is dropped.
    case cancelled
    /// Resumed with the load's result.
    case done
  }

  @usableFromInline let state = Mutex(State.idle)

  @inlinable init() {}

  /// Whether the waiter stopped because its task was cancelled (so it must leave the load).
  @inlinable var wasCancelled: Bool {
    state.withLock { if case .cancelled = $0 { true } else { false } }
  }

  /// Suspends until ``answer(with:)`` or the task's cancellation, which throws
  /// `CancellationError` at once.
  @inlinable func wait(isolation: isolated (any Actor)? = #isolation) async throws -> Value {
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: Continuation) in
        let immediate: Result<Value, any Error>? = state.withLock { state in
          switch state {
          case .idle:
            // The usual path: nothing happened yet.
            state = .waiting(continuation)
            return nil
          case .answered(let result):
            // The load finished between creating the waiter and registering.
            state = .done
            return result
          case .cancelled:
            // The task was cancelled before registering.
            return .failure(CancellationError())
          case .waiting, .done:
            preconditionFailure("Internal inconsistency: load waiter registered twice")
          }
        }
        if let immediate { continuation.resume(with: immediate) }
      }
    } onCancel: {
      let continuation: Continuation? = state.withLock { state in
        switch state {
        case .idle:
          // Not registered yet: registration will throw.
          state = .cancelled
          return nil
        case .waiting(let continuation):
          // Stop waiting at once; the load goes on for the others.
          state = .cancelled
          return continuation
        case .answered, .cancelled, .done:
          // Already answered or already cancelled: the answer stands.
          return nil
        }
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Resumes the waiter with the load's result, unless it was cancelled first.
  @inlinable func answer(with result: Result<Value, any Error>) {
    let continuation: Continuation? = state.withLock { state in
      switch state {
      case .idle:
        // Not registered yet: keep the result for registration.
        state = .answered(result)
        return nil
      case .waiting(let continuation):
        // The usual path.
        state = .done
        return continuation
      case .cancelled:
        // It left already; nobody to answer.
        return nil
      case .answered, .done:
        preconditionFailure("Internal inconsistency: load waiter answered twice")
      }
    }
    continuation?.resume(with: result)
  }
}
