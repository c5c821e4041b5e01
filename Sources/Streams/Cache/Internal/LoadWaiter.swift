// One caller of AsyncCache waiting for a load in flight: a suspended task, or a callback
// (``AsyncCache/request(_:load:answer:)``). It is answered either by the load's result or, at
// once, by its cancellation — whichever comes first; the lock makes sure exactly one of them
// answers it.
import Synchronization

/// A caller suspended until a shared load answers, or until it is cancelled; or a callback
/// called once with the answer or, when cancelled first, with `CancellationError`.
///
/// @inlinable throughout so that it is specialised with AsyncCache (see there). Its continuation
/// is unsafe rather than checked (a checked one allocates per wait): `state` already guarantees
/// exactly one resumption.
@usableFromInline
final class LoadWaiter<Value: Sendable>: Sendable {
  @usableFromInline typealias Continuation = UnsafeContinuation<Value, any Error>
  @usableFromInline typealias Callback = @Sendable (Result<Value, any Error>) -> Void

  @usableFromInline
  enum State {
    /// Created, continuation not yet registered.
    case idle
    case waiting(Continuation)
    /// A callback waiter: called once, with the answer or with `CancellationError`.
    case callback(Callback)
    /// Answered before registering (the load finished first): registration returns at once.
    case answered(Result<Value, any Error>)
    /// Cancelled (before or while waiting); a later answer is dropped.
    case cancelled
    /// Resumed with the load's result.
    case done
  }

  @usableFromInline let state: Mutex<State>

  @inlinable init() { state = Mutex(.idle) }

  /// A waiter that is answered by calling `callback` (on the thread that finishes the load, or
  /// that cancels it) instead of resuming a task.
  @inlinable init(callback: @escaping Callback) {
    state = Mutex(.callback(callback))
  }

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
          case .waiting, .callback, .done:
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
        case .answered, .cancelled, .done, .callback:
          // Already answered or already cancelled: the answer stands. (A callback waiter is
          // never awaited.)
          return nil
        }
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// A callback waiter leaves: its callback gets `CancellationError` now, unless it was answered
  /// first. True when it left (so the cache must forget it).
  @inlinable func cancelCallback() -> Bool {
    let callback: Callback? = state.withLock { state in
      guard case .callback(let callback) = state else { return nil }
      state = .cancelled
      return callback
    }
    callback?(.failure(CancellationError()))
    return callback != nil
  }

  /// Resumes the waiter with the load's result, unless it was cancelled first.
  @inlinable func answer(with result: Result<Value, any Error>) {
    let taker: (Continuation?, Callback?) = state.withLock { state in
      switch state {
      case .idle:
        // Not registered yet: keep the result for registration.
        state = .answered(result)
        return (nil, nil)
      case .waiting(let continuation):
        // The usual path.
        state = .done
        return (continuation, nil)
      case .callback(let callback):
        state = .done
        return (nil, callback)
      case .cancelled:
        // It left already; nobody to answer.
        return (nil, nil)
      case .answered, .done:
        preconditionFailure("Internal inconsistency: load waiter answered twice")
      }
    }
    taker.0?.resume(with: result)
    taker.1?(result)
  }
}
