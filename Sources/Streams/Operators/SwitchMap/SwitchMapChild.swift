// How a switchMap child goes on after its synchronous start: done, in a task, or waiting for
// callbacks of its own.

/// How a switchMap child goes on after its synchronous start (``_Concurrency/AsyncSequence/switchMap(starting:)``).
public struct SwitchMapChild: Sendable {
  @usableFromInline enum Kind: Sendable {
    case finished
    case task(@Sendable () async -> Void)
    case pending(cancel: @Sendable () -> Void)
  }

  @usableFromInline let kind: Kind

  @inlinable init(kind: Kind) { self.kind = kind }

  /// The child did all its work in its start: it has returned, and no task is started.
  @inlinable public static var finished: SwitchMapChild { SwitchMapChild(kind: .finished) }

  /// The child goes on with `work` in a task of the sequence's own, cancelled when a newer
  /// element arrives; the child has returned when `work` returns.
  @inlinable public static func task(_ work: @escaping @Sendable () async -> Void) -> SwitchMapChild {
    SwitchMapChild(kind: .task(work))
  }

  /// The child goes on without a task: what it waits for (callbacks it has set up) will call
  /// the emitter's ``SwitchMapEmitter/finish()`` when it is done, which is when it has
  /// returned. `cancel` is called once, outside any lock, if a newer element arrives or the
  /// consumer leaves first: the child must stop (its outputs are no longer delivered).
  @inlinable public static func pending(cancel: @escaping @Sendable () -> Void) -> SwitchMapChild {
    SwitchMapChild(kind: .pending(cancel: cancel))
  }
}
