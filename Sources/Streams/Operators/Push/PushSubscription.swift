// What a subscriber holds to stop a pushed chain: cancelling it stops delivery and whatever the
// chain runs.

/// Stops a subscription to a ``PushableAsyncSequence``.
public struct PushSubscription: Sendable {
  @usableFromInline let stop: @Sendable () -> Void

  /// A subscription that calls `stop` when cancelled.
  public init(stop: @escaping @Sendable () -> Void) { self.stop = stop }

  /// Stops delivery and cancels what the sequence runs; the receiver hears nothing more. Calling
  /// it again does nothing more.
  @inlinable public func cancel() { stop() }
}
