// The error withTimeout throws when its time runs out before the operation finishes.

/// Thrown by ``withTimeout(_:clock:operation:)`` when `duration` elapsed before the operation
/// finished. The operation was cancelled and has returned by the time this is thrown.
public struct TimeoutError: Error, Hashable, CustomStringConvertible {
  /// The time limit that elapsed.
  public var duration: Duration

  /// Creates the error for a limit of `duration`.
  public init(duration: Duration) { self.duration = duration }

  /// "The operation did not finish within 2.0 s.", in the units a person reads.
  public var description: String { "The operation did not finish within \(duration.millisecondsDescription)." }
}
