// What a subscriber holds to stop a pushed chain: cancelling it stops delivery and whatever the
// chain runs.

/// Stops a subscription to a ``PushableAsyncSequence``.
public struct PushSubscription: Sendable {
  /// A closure a user gives, or a stage of this package, which cancels itself.
  @usableFromInline enum Target: Sendable {
    case closure(@Sendable () -> Void)
    case stage(any PushCancellable)
  }

  @usableFromInline let target: Target

  /// A subscription that calls `stop` when cancelled.
  public init(stop: @escaping @Sendable () -> Void) { target = .closure(stop) }

  /// A subscription that cancels a stage of this package.
  @inlinable package init(_ stage: any PushCancellable) { target = .stage(stage) }

  /// Stops delivery and cancels what the sequence runs; the receiver hears nothing more. Calling
  /// it again does nothing more.
  @inlinable public func cancel() {
    switch target {
    case .closure(let stop): stop()
    case .stage(let stage): stage.cancel()
    }
  }
}
