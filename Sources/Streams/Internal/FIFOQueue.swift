// A first-in-first-out queue on one array with a moving head: O(1) append and pop, no shifting
// per pop. The operators' consumer side, the virtual-time executor's jobs and the pipeline's
// input hand-offs all queue this way, so they share this one.

/// A FIFO of elements: an array read from a moving head, emptied when the head reaches the
/// end and compacted when the head has passed half of it, so memory follows what is queued.
///
/// `package` and @inlinable: Pipeline uses it, specialised for its own element types.
@usableFromInline
package struct FIFOQueue<Element> {
  @usableFromInline var storage: [Element] = []
  @usableFromInline var head = 0

  @inlinable package init() {}

  /// How many elements are queued.
  @inlinable package var count: Int { storage.count - head }

  /// Queues `element` last.
  @inlinable package mutating func append(_ element: Element) { storage.append(element) }

  /// Removes and returns the first element, or nil when empty.
  @inlinable package mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Frees the buffer when nothing is queued (a queue that is rarely used, in each of many
  /// objects, should not keep one).
  @inlinable package mutating func freeIfEmpty() {
    guard count == 0, storage.capacity > 0 else { return }
    storage = []
    head = 0
  }

  /// Drops every queued element.
  @inlinable package mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}

extension FIFOQueue: Sendable where Element: Sendable {}
