// The reader's fence without a script: the held shards' fencing counters are watched (`WATCH`)
// and their leases read, then the shards whose lease is ours are read with `XREADGROUP` inside
// `MULTI`/`EXEC`. Another worker taking a shard increments its counter, which makes `EXEC` do
// nothing, so no keystroke is delivered to this worker once another holds the shard. (Watching the
// counter rather than the lease means a renewal does not void the read; a lease that merely
// expired, with nobody holding the shard since, delivers to this worker what its next owner claims
// anyway.) Done in a script, the same read cost the server about three times as much CPU: every
// entry of the reply was made into Lua values and back.
import RESP

/// What one fenced read found for one shard.
enum FencedReadOutcome: Equatable {
  /// New keystrokes for this worker (now pending under its name), in stream order.
  case entries([RESPValue])
  /// Nothing new; the stream's last id (`0-0` when empty), to wait after.
  case nothingAfter(String)
  /// Nothing new, and the stream's last id was not asked for (the shard was busy): read again,
  /// asking for it, before waiting.
  case nothingNew
  /// The stream or its group is missing (deleted, or Redis restarted empty).
  case noGroup
  /// The lease is not ours, or the server refused the read: nothing was read.
  case refused
  /// Redis is out of memory, and refuses every command inside `MULTI`: nothing was read. Its
  /// message.
  case outOfMemory(String)
}

enum FencedRead {
  /// Reads up to `count` new keystrokes of each of `held` as consumer `consumer` of `group`, in
  /// two round trips on `connection`; nil when a shard changed hands while the read was on its
  /// way (nothing was read: read again). The stream's last id, needed only to wait, is asked for
  /// of every shard but the `busy` ones (whose last read found keystrokes, and most likely finds
  /// more): a shard that is busy no more comes back as ``FencedReadOutcome/nothingNew``.
  static func read(
    _ held: [ShardHolding], keys: ScaleOutKeys, group: String, consumer: String, count: Int,
    busy: Set<Int> = [], on connection: RESPConnection
  ) throws(RESPError) -> [Int: FencedReadOutcome]? {
    guard !held.isEmpty else { return [:] }
    return try WatchedTransaction.run(
      watching: held.map { keys.fence(shard: $0.shard) },
      reading: [RESPCommand("MGET", arguments: held.map { keys.lease(shard: $0.shard) })], on: connection
    ) { seen throws(RESPError) -> TransactionStep<[Int: FencedReadOutcome]> in
      let values = seen.first?.array ?? []
      var outcomes: [Int: FencedReadOutcome] = [:]
      var ours: [ShardHolding] = []
      for (index, holding) in held.enumerated() {
        if index < values.count, case .bulkString(let value) = values[index], value.elementsEqual(holding.lease.utf8) {
          ours.append(holding)
        } else {
          outcomes[holding.shard] = .refused
        }
      }
      guard !ours.isEmpty else { return .finished(outcomes) }
      var reads = RESPRequest()
      for holding in ours {
        let stream = keys.keystrokes(shard: holding.shard)
        reads.append(RESPCommand("XREADGROUP", "GROUP", group, consumer, "COUNT", count, "STREAMS", stream, ">"))
        if !busy.contains(holding.shard) { reads.append(RESPCommand("XREVRANGE", stream, "+", "-", "COUNT", 1)) }
      }
      return .write(reads) { executed in
        switch executed {
        case .executed(let results):
          var index = 0
          for holding in ours {
            let read = results[index]
            index += 1
            var last: RESPValue?
            if !busy.contains(holding.shard) {
              last = results[index]
              index += 1
            }
            outcomes[holding.shard] = outcome(read: read, last: last)
          }
        case .refused(let refusal):
          // Nothing was read. A full Redis refuses every command queued, and that is a pause, not
          // a refusal of the lease.
          let outcome: FencedReadOutcome = RedisRefusal.isOutOfMemory(refusal) ? .outOfMemory(refusal) : .refused
          for holding in ours { outcomes[holding.shard] = outcome }
        case .aborted:
          break
        }
        return outcomes
      }
    }
  }

  /// One shard's part of the transaction: `XREADGROUP`'s reply (`[[stream, entries]]`, or null
  /// for nothing new) and `XREVRANGE … COUNT 1`'s (`[[id, fields]]`, or `[]`) when it was asked.
  private static func outcome(read: RESPValue, last: RESPValue?) -> FencedReadOutcome {
    switch read {
    case .array(let streams):
      guard let stream = streams.first?.array, stream.count == 2, let entries = stream[1].array else {
        return .refused
      }
      if !entries.isEmpty { return .entries(entries) }
    case .null:
      break
    case .error(let message) where message.contains("NOGROUP"):
      return .noGroup
    default:
      return .refused
    }
    guard let last else { return .nothingNew }
    guard let newest = last.array else { return .refused }
    return .nothingAfter(newest.first?.array?.first?.string ?? "0-0")
  }
}
