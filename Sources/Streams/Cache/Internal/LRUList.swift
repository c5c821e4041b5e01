// The bounded least-recently-used store behind AsyncCache: a hash map from key to slot and a
// doubly linked list threaded through one dense array by index, so that a lookup, a "used now"
// and an eviction are each O(1) and a hit allocates nothing.

/// A bounded map that remembers the order in which its keys were last used.
///
/// Slots live densely in `nodes`: removing one moves the last slot into its place (and fixes the
/// links and the map entry that pointed at it), so no free list and no stale values are kept.
///
/// @inlinable throughout so that it is specialised with AsyncCache (see there).
@usableFromInline
struct LRUList<Key: Hashable, Element> {
  @usableFromInline
  struct Node {
    @usableFromInline var key: Key
    @usableFromInline var element: Element
    /// The slot used just after this one (towards `newest`), or `none`.
    @usableFromInline var newer: Int
    /// The slot used just before this one (towards `oldest`), or `none`.
    @usableFromInline var older: Int

    @inlinable init(key: Key, element: Element, newer: Int, older: Int) {
      self.key = key
      self.element = element
      self.newer = newer
      self.older = older
    }
  }

  @inlinable static var none: Int { -1 }

  /// The most entries kept; inserting beyond it evicts the least recently used.
  @usableFromInline let capacity: Int
  @usableFromInline var nodes: [Node] = []
  @usableFromInline var slots: [Key: Int] = [:]
  @usableFromInline var newest = LRUList.none
  @usableFromInline var oldest = LRUList.none

  /// How many slots are reserved up front; beyond it the store grows as entries arrive, so a
  /// huge capacity costs nothing until it is used.
  @inlinable static var initialReservation: Int { 1_024 }

  @inlinable init(capacity: Int) {
    self.capacity = max(0, capacity)
    let reserved = min(self.capacity, Self.initialReservation)
    nodes.reserveCapacity(reserved)
    slots.reserveCapacity(reserved)
  }

  @inlinable var count: Int { nodes.count }

  /// The slot holding `key`, if any. Slots stay valid until the next insert or removal.
  @inlinable func slot(of key: Key) -> Int? { slots[key] }

  @inlinable func element(at slot: Int) -> Element { nodes[slot].element }

  /// Makes the entry in `slot` the most recently used.
  @inlinable mutating func markUsed(_ slot: Int) {
    guard slot != newest else { return }
    unlink(slot)
    linkAsNewest(slot)
  }

  /// Stores `element` under `key` as the most recently used entry, replacing an entry with the
  /// same key. Returns the entry evicted to make room, if one was. Stores nothing at capacity 0.
  @discardableResult
  @inlinable mutating func insert(_ element: Element, for key: Key) -> (key: Key, element: Element)? {
    if let slot = slots[key] {
      nodes[slot].element = element
      markUsed(slot)
      return nil
    }
    guard capacity > 0 else { return nil }
    if nodes.count == capacity {
      // Full: the new entry takes the least recently used one's slot, swapped in place, so no
      // other node moves and the evicted key and element are handed out without a copy.
      let victim = oldest
      var evictedKey = key
      var evictedElement = element
      swap(&evictedKey, &nodes[victim].key)
      swap(&evictedElement, &nodes[victim].element)
      slots[evictedKey] = nil
      slots[key] = victim
      markUsed(victim)
      return (evictedKey, evictedElement)
    }
    nodes.append(Node(key: key, element: element, newer: Self.none, older: Self.none))
    let slot = nodes.count - 1
    slots[key] = slot
    linkAsNewest(slot)
    return nil
  }

  /// Removes the entry in `slot`.
  @inlinable mutating func remove(at slot: Int) {
    unlink(slot)
    slots[nodes[slot].key] = nil
    let last = nodes.count - 1
    if slot != last {
      // Move the last node into the hole and repoint everything that referred to it.
      let moved = nodes[last]
      nodes[slot] = moved
      slots[moved.key] = slot
      if moved.newer != Self.none { nodes[moved.newer].older = slot } else { newest = slot }
      if moved.older != Self.none { nodes[moved.older].newer = slot } else { oldest = slot }
    }
    nodes.removeLast()
  }

  @inlinable mutating func removeAll() {
    nodes.removeAll(keepingCapacity: true)
    slots.removeAll(keepingCapacity: true)
    newest = Self.none
    oldest = Self.none
  }

  /// Keys from the most to the least recently used (for tests and debugging; O(n)).
  @inlinable var keysByRecency: [Key] {
    var keys: [Key] = []
    var slot = newest
    while slot != Self.none {
      keys.append(nodes[slot].key)
      slot = nodes[slot].older
    }
    return keys
  }

  @inlinable mutating func unlink(_ slot: Int) {
    // Read the links only: copying the whole node would retain its key and element.
    let newer = nodes[slot].newer
    let older = nodes[slot].older
    if newer != Self.none { nodes[newer].older = older } else { newest = older }
    if older != Self.none { nodes[older].newer = newer } else { oldest = newer }
    nodes[slot].newer = Self.none
    nodes[slot].older = Self.none
  }

  @inlinable mutating func linkAsNewest(_ slot: Int) {
    nodes[slot].older = newest
    nodes[slot].newer = Self.none
    if newest != Self.none { nodes[newest].newer = slot } else { oldest = slot }
    newest = slot
  }
}
