// A request to AsyncCache whose answer is delivered to a callback instead of awaited: how a
// caller that asks for several keys at once waits for all of them in one suspension.

/// Cancels a request made with ``AsyncCache/request(_:load:answer:)``.
@usableFromInline package struct CacheRequest: Sendable {
  @usableFromInline let stop: @Sendable () -> Void

  /// A request that `stop` cancels: for code that offers the same kind of request without a
  /// cache (a load of its own in a task, cancelled by cancelling that task).
  @inlinable package init(stop: @escaping @Sendable () -> Void) { self.stop = stop }

  /// A request already answered: cancelling it does nothing.
  @inlinable static var answered: CacheRequest { CacheRequest {} }

  /// Leaves the load, as a cancelled awaiting caller does: unless it was answered already, the
  /// answer callback gets `CancellationError` at once, on this thread, and the load is cancelled
  /// when no caller is left. Calling it again does nothing more.
  @inlinable package func cancel() { stop() }
}
