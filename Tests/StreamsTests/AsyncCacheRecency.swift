// What order a cache keeps its entries in, read straight from its state: the least recently used
// entry is the next evicted, and tests check that order rather than provoke every eviction.
@testable import Streams

extension AsyncCache {
  /// Stored keys from the most to the least recently used (O(count)).
  var keysByRecency: [Key] { state.withLock { $0.entries.keysByRecency } }
}
