// The error withTimeout throws when its time runs out before the operation finishes.

/// Thrown by ``withTimeout(_:clock:operation:)`` when `duration` elapsed before the operation
/// finished. The operation was cancelled and has returned by the time this is thrown.
public struct TimeoutError: Error, Hashable, CustomStringConvertible {
  /// The time limit that elapsed.
  public var duration: Duration

  /// Creates the error for a limit of `duration`.
  public init(duration: Duration) { self.duration = duration }

  public var description: String { "The operation did not finish within \(describe(duration))." }
}
