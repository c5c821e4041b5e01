// Events between the pipeline and Redis: the pipeline's sink appends (a lock and an append,
// nothing that waits), the committer thread takes them in order and commits them. Its size is
// the reader's backpressure: the reader waits while it is full.
import Synchronization

final class EventOutbox: Sendable {
  private struct State {
    var items: [CommitItem] = []
    var head = 0
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

  func add(_ item: CommitItem) {
    state.withLock { $0.items.append(item) }
    arrived.signal()
  }

  /// The oldest items, at most `limit`, in order.
  func take(limit: Int) -> [CommitItem] {
    let taken = state.withLock { state -> [CommitItem] in
      let end = min(state.items.count, state.head + limit)
      let batch = Array(state.items[state.head..<end])
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
    }
  }
}
