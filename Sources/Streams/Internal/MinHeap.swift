// A binary min-heap: the clocks keep their sleepers in one, ordered by (deadline, registration).

/// A binary min-heap of comparable elements. O(log n) push and pop, O(1) peek.
@usableFromInline
struct MinHeap<Element: Comparable> {
  @usableFromInline var storage: [Element] = []

  @inlinable init() {}

  @inlinable var isEmpty: Bool { storage.isEmpty }
  @inlinable var count: Int { storage.count }
  @inlinable var min: Element? { storage.first }

  @inlinable mutating func push(_ element: Element) {
    storage.append(element)
    var child = storage.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      if storage[child] < storage[parent] {
        storage.swapAt(child, parent)
        child = parent
      } else {
        break
      }
    }
  }

  @inlinable @discardableResult mutating func popMin() -> Element? {
    guard !storage.isEmpty else { return nil }
    storage.swapAt(0, storage.count - 1)
    let result = storage.removeLast()
    var parent = 0
    let count = storage.count
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < count, storage[left] < storage[smallest] { smallest = left }
      if right < count, storage[right] < storage[smallest] { smallest = right }
      if smallest == parent { break }
      storage.swapAt(parent, smallest)
      parent = smallest
    }
    return result
  }
}
