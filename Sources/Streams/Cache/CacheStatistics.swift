// The counters of an AsyncCache, which tests and benchmarks read.

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
