// Events between the pipeline and Redis: the pipeline's sink appends (a lock and an append,
// nothing that waits), the committer thread takes them in order and commits them. Its size, in
// events and in bytes, is the reader's backpressure: the reader waits while it is full.
import Synchronization

final class EventOutbox: Sendable {
  private struct State {
    var items: [CommitItem] = []
    var head = 0
    /// The footprint of the items waiting.
    var bytes = 0
  }

  private let state = Mutex(State())
  /// Signalled when items arrive (the committer waits on it).
  let arrived: WakePipe
  /// Signalled when the committer has taken items (a reader waiting for room waits on it).
  let drained: WakePipe

  init() throws {
    arrived = try WakePipe()
    drained = try WakePipe()
  }

  /// Items waiting.
  var count: Int { state.withLock { $0.items.count - $0.head } }

  /// Whether more than `count` items or more than `bytes` of them are waiting.
  func isFull(count: Int, bytes: Int) -> Bool {
    state.withLock { $0.items.count - $0.head > count || $0.bytes > bytes }
  }

  func add(_ item: CommitItem) {
    state.withLock { state in
      state.items.append(item)
      state.bytes += item.footprint
    }
    arrived.signal()
  }

  /// The oldest items in order, at most `limit` of them and, beyond the first, at most `bytes`.
  func take(limit: Int, bytes: Int = .max) -> [CommitItem] {
    let taken = state.withLock { state -> [CommitItem] in
      var end = state.head
      var taken = 0
      while end < state.items.count, end - state.head < limit {
        let footprint = state.items[end].footprint
        if end > state.head, taken + footprint > bytes { break }
        taken += footprint
        end += 1
      }
      let batch = Array(state.items[state.head..<end])
      state.bytes -= taken
      state.head = end
      if state.head == state.items.count {
        state.items.removeAll(keepingCapacity: true)
        state.head = 0
      } else if state.head > 4096 {
        state.items.removeSubrange(0..<state.head)
        state.head = 0
      }
      return batch
    }
    drained.signal()
    return taken
  }

  /// Removes the items of `holding` (its lease is gone: the commit would be refused).
  func drop(_ holding: ShardHolding) {
    state.withLock { state in
      state.items = state.items[state.head...].filter { $0.holding != holding }
      state.head = 0
      state.bytes = state.items.reduce(0) { $0 + $1.footprint }
    }
  }
}
