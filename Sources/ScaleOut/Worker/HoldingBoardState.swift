// The decisions of HoldingBoard, as a plain value: which shards are held, which were just taken and
// wait to be claimed, and which connection the reader blocks on. Each change returns what to tell
// (the reader's connection to unblock); the board signals after releasing its lock.

/// The shards a worker holds and the reader's view of them, as a state machine: the lease
/// keeper's changes and the reader's reads are its transitions.
struct HoldingBoardState {
  /// The shards held now, by shard.
  private(set) var held: [Int: ShardHolding] = [:]
  /// Holdings acquired since the reader last looked: their pending keystrokes are claimed first.
  private(set) var toClaim: [ShardHolding] = []
  /// The reader's connection, for `CLIENT UNBLOCK`; nil while it has none.
  var readerClientID: Int64?

  init() {}

  /// A shard was just acquired: held, and to be claimed. Returns the reader's connection to
  /// unblock, if it has one.
  mutating func acquired(_ holding: ShardHolding) -> Int64? {
    held[holding.shard] = holding
    toClaim.append(holding)
    return readerClientID
  }

  /// A shard was lost or given back: neither held nor to be claimed. A newer holding of the same
  /// shard (acquired again since) stays.
  mutating func lost(_ holding: ShardHolding) {
    if held[holding.shard] == holding { held[holding.shard] = nil }
    toClaim.removeAll { $0 == holding }
  }

  /// Whether `holding` is still the one held for its shard.
  func holds(_ holding: ShardHolding) -> Bool { held[holding.shard] == holding }

  /// The reader's next work: the holdings to claim (taken off the list), and all held, by shard.
  mutating func nextForReader() -> (claim: [ShardHolding], held: [ShardHolding]) {
    defer { toClaim = [] }
    return (toClaim, held.values.sorted { $0.shard < $1.shard })
  }

  /// Empties the board (shutdown); returns what was held.
  mutating func takeAll() -> [ShardHolding] {
    defer {
      held = [:]
      toClaim = []
    }
    return Array(held.values)
  }
}
