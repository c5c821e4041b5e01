// What AsyncCache answers: the value and how this call got it (from memory, its own load, or a
// load another caller started).

/// A value answered by ``AsyncCache/value(for:load:)`` and where it came from.
public struct CacheAnswer<Value> {
  /// The cached or freshly loaded value.
  public var value: Value
  /// How this call got the value.
  public var origin: CacheOrigin

  /// Creates an answer.
  public init(value: Value, origin: CacheOrigin) {
    self.value = value
    self.origin = origin
  }
}

extension CacheAnswer: Sendable where Value: Sendable {}
extension CacheAnswer: Equatable where Value: Equatable {}
