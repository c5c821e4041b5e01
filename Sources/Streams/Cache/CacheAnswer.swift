// What AsyncCache answers besides the value: where the value came from (the product reports it
// in its events) and the counters tests and benchmarks read.

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

/// How a call to ``AsyncCache/value(for:load:)`` got its value.
public enum CacheOrigin: String, Sendable, Hashable, CaseIterable {
  /// Answered from memory at once: a stored, unexpired entry.
  case cached
  /// This caller missed and started the load (its `load` closure ran).
  case loaded
  /// This caller missed and waited for a load another caller had started (its `load` closure
  /// did not run).
  case joined
}

/// Counters of an ``AsyncCache`` since it was created (``AsyncCache/removeAll()`` keeps them).
public struct CacheStatistics: Sendable, Hashable {
  /// Calls answered from memory (origin ``CacheOrigin/cached``).
  public var hits = 0
  /// Loads started (calls with origin ``CacheOrigin/loaded``), whether they succeeded or not.
  public var loads = 0
  /// Calls that waited for a load already in flight (origin ``CacheOrigin/joined``).
  public var joins = 0
  /// Entries dropped to make room for a newer one (least recently used first).
  public var evictions = 0
  /// Lookups that found their entry expired (its time to live was over): misses.
  public var expirations = 0

  /// All counters at zero.
  public init() {}
}
