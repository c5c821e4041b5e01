// How often and how patiently withRetry tries again: a number of attempts and an exponential
// backoff between them, computed without ever trapping on extreme settings.

/// The attempts and waits of ``withRetry(_:clock:until:isolation:shouldRetry:operation:)``: at most
/// `maxAttempts` calls, waiting `initialBackoff` after the first failure, then `multiplier` times
/// longer after each further one, never longer than `maxBackoff`.
///
/// ```swift
/// let policy = RetryPolicy(maxAttempts: 4, initialBackoff: .milliseconds(200), maxBackoff: .seconds(1))
/// // waits 200 ms, 400 ms and 800 ms between the 4 attempts; a 5th wait would be 1 s, not 1.6 s
/// ```
///
/// Extreme settings are clamped rather than trusted: fewer than 1 attempt means 1; a negative
/// backoff or multiplier means 0; a NaN multiplier means 1; a backoff too long to represent
/// becomes `maxBackoff`, or about 35,000 years when there is no maximum.
public struct RetryPolicy: Sendable, Hashable {
  /// The most calls of the operation, the first included. At least 1.
  public var maxAttempts: Int
  /// The wait after the first failed attempt.
  public var initialBackoff: Duration
  /// How much longer each wait is than the one before.
  public var multiplier: Double
  /// The longest wait, or nil for no limit.
  public var maxBackoff: Duration?

  /// Creates a policy; see the type's documentation for how extreme values are clamped.
  public init(maxAttempts: Int, initialBackoff: Duration, multiplier: Double = 2, maxBackoff: Duration? = nil) {
    self.maxAttempts = max(1, maxAttempts)
    self.initialBackoff = initialBackoff
    self.multiplier = multiplier
    self.maxBackoff = maxBackoff
  }

  /// The wait before retry number `retry`: 1 is the wait after the first failed attempt.
  /// `initialBackoff × multiplier^(retry − 1)`, at most `maxBackoff`, never negative.
  public func backoff(beforeRetry retry: Int) -> Duration {
    let base = max(.zero, initialBackoff)
    let ceiling = maxBackoff.map { max(.zero, $0) } ?? Self.longestBackoff
    guard base > .zero, ceiling > .zero else { return .zero }
    let growth = multiplier.isNaN ? 1 : max(0, multiplier)
    let factor = power(growth, max(0, retry - 1))
    // Also true for an infinite or NaN product: the ceiling applies.
    guard base.inSeconds * factor < ceiling.inSeconds else { return ceiling }
    return base * factor
  }

  /// The wait used when the computed one is too long and there is no `maxBackoff`.
  static var longestBackoff: Duration { .seconds(Int64(1) << 40) }
}

/// `base` to the power `exponent` by repeated squaring: O(log exponent) for any retry count;
/// overflows to infinity rather than trapping.
private func power(_ base: Double, _ exponent: Int) -> Double {
  var result = 1.0
  var square = base
  var remaining = exponent
  while remaining > 0 {
    if remaining & 1 == 1 { result *= square }
    square *= square
    remaining >>= 1
  }
  return result
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  fileprivate var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
