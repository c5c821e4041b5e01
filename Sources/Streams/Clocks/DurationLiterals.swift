// Milliseconds are the unit of this package's tests and recordings: make them short to write.

extension ManualClock.Instant {
  /// The instant `value` milliseconds after the clock's zero.
  public static func milliseconds(_ value: Int64) -> Self {
    Self(offset: .milliseconds(value))
  }

  /// Whole milliseconds since the clock's zero, rounded down.
  public var milliseconds: Int64 { offset.wholeMilliseconds }
}

extension Duration {
  /// The duration in whole milliseconds, rounded toward negative infinity.
  package var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    let fromAttoseconds =
      attoseconds >= 0
      ? attoseconds / 1_000_000_000_000_000
      : (attoseconds - 999_999_999_999_999) / 1_000_000_000_000_000
    return seconds * 1_000 + fromAttoseconds
  }
}
