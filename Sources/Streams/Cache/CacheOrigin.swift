// How a call to AsyncCache got its value: the product reports it in its events.

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
