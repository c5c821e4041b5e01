// The values an AsyncCache keeps: a bounded least-recently-used list whose entries expire a time
// to live after their value was obtained. The part of the cache that remembers; the loads in
// flight are FlightTable's.

/// Stored values with their expiry instants, least recently used evicted first.
///
/// An entry stored at instant `t` is fresh strictly before `t + timeToLive` and expired from
/// then on. An expired entry stays (counting towards the capacity) until a successful load
/// replaces it or it is evicted, so that it can still be offered as stale. @inlinable throughout
/// so that it is specialised with AsyncCache.
@usableFromInline
struct CacheEntries<Key: Hashable, Value, Instant: InstantProtocol> where Instant.Duration == Duration {
  @usableFromInline
  struct Entry {
    @usableFromInline var value: Value
    /// The first instant at which the entry is a miss; nil when entries never expire.
    @usableFromInline var expiry: Instant?

    @inlinable init(value: Value, expiry: Instant?) {
      self.value = value
      self.expiry = expiry
    }
  }

  /// What a lookup found.
  @usableFromInline
  enum Lookup {
    /// A fresh value, now the most recently used.
    case fresh(Value)
    /// An entry past its expiry (kept, for ``stale(for:)``).
    case expired
    /// No entry.
    case absent
  }

  @usableFromInline var list: LRUList<Key, Entry>
  /// How long an entry stays fresh after its value was obtained; nil: until it is evicted.
  @usableFromInline let timeToLive: Duration?

  @inlinable init(capacity: Int, timeToLive: Duration?) {
    list = LRUList(capacity: capacity)
    self.timeToLive = timeToLive
  }

  /// How many entries are stored, expired ones included.
  @inlinable var count: Int { list.count }

  /// Keys from the most to the least recently used (O(count)).
  @inlinable var keysByRecency: [Key] { list.keysByRecency }

  /// The entry for `key` at `now`; a fresh one is marked used.
  @inlinable mutating func lookUp(_ key: Key, now: Instant) -> Lookup {
    guard let slot = list.slot(of: key) else { return .absent }
    if let expiry = list.element(at: slot).expiry, now >= expiry { return .expired }
    list.markUsed(slot)
    return .fresh(list.element(at: slot).value)
  }

  /// Stores `value` under `key` as the most recently used entry, obtained at `obtainedAt` (nil:
  /// `now`; never later than `now`, so that a value cannot live longer for having been obtained
  /// "later"). True when an entry was evicted to make room.
  @inlinable mutating func store(_ value: Value, for key: Key, obtainedAt: Instant?, now: Instant) -> Bool {
    let start = obtainedAt.map { min($0, now) } ?? now
    return list.insert(Entry(value: value, expiry: timeToLive.map { start.advanced(by: $0) }), for: key) != nil
  }

  /// The value stored for `key`, expired or not, without marking it used.
  @inlinable func stale(for key: Key) -> Value? {
    list.slot(of: key).map { list.element(at: $0).value }
  }

  /// Removes every entry.
  @inlinable mutating func removeAll() { list.removeAll() }
}
