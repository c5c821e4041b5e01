// What the lease keeper tells the reader: which shards this worker holds now, which it has just
// taken (their pending keystrokes to claim first), and how to interrupt the reader's blocking
// wait when that changes.
import Synchronization

/// Shared by the lease keeper (writes) and the reader (reads); every method takes the lock only
/// to ask ``HoldingBoardState``, and signals after releasing it.
final class HoldingBoard: Sendable {
  private let state = Mutex(HoldingBoardState())
  /// Signalled on every change, for a reader that waits with nothing to read.
  let changed: WakePipe

  init() throws {
    changed = try WakePipe()
  }

  /// The shards held now, by shard.
  var held: [Int: ShardHolding] { state.withLock { $0.held } }

  /// Records a shard just acquired: the reader claims its pending keystrokes before reading it.
  /// Returns the reader's connection to unblock.
  func acquired(_ holding: ShardHolding) -> Int64? {
    let reader = state.withLock { $0.acquired(holding) }
    changed.signal()
    return reader
  }

  /// Records a shard lost or given back.
  func lost(_ holding: ShardHolding) {
    state.withLock { $0.lost(holding) }
    changed.signal()
  }

  /// Whether `holding` is still held.
  func holds(_ holding: ShardHolding) -> Bool { state.withLock { $0.holds(holding) } }

  /// The reader's next work: holdings to claim (taken off the list), and all held.
  func nextForReader() -> (claim: [ShardHolding], held: [ShardHolding]) {
    state.withLock { $0.nextForReader() }
  }

  /// The reader's connection id, for `CLIENT UNBLOCK`.
  func setReaderClientID(_ id: Int64?) { state.withLock { $0.readerClientID = id } }

  /// Empties the board (shutdown): returns what was held.
  func takeAll() -> [ShardHolding] {
    let all = state.withLock { $0.takeAll() }
    changed.signal()
    return all
  }
}
