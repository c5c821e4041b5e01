// The fenced commit without a script: the shards' fencing counters are watched (`WATCH`), their
// leases, last batches and the open searches the batch touches are read with the server's time,
// and what the batch does is decided here; then every shard's appends, acknowledgements and
// bookkeeping go in one `MULTI`/`EXEC`. Another worker taking a shard increments its counter, which
// makes `EXEC` do nothing: a worker that lost a shard commits nothing more, and the batch is
// decided again from what the server holds then. Done in a script, each event's arguments were
// made into Lua values and each append went through Lua: about three quarters of the commit's
// cost at the server.
import Pipeline
import RESP

/// One shard's part of a commit: its events in order, and the keystrokes they acknowledge.
struct ShardBatch {
  let holding: ShardHolding
  /// The batch's id (`<lease>#<count>`): a batch sent again after a lost reply is not committed
  /// twice.
  let id: String
  let items: [CommitItem]
}

/// What a commit did for one shard.
enum FencedCommitOutcome: Equatable {
  /// Appended and acknowledged (or found already committed).
  case committed
  /// The lease is not ours: nothing was written.
  case fencedOut
  /// The server refused a write (a key of another type, say).
  case failed(String)
}

enum FencedCommit {
  /// Commits `batches` in two round trips on `connection`; nil when a shard changed hands while
  /// the commit was on its way (nothing was written: decide again). Outcomes are keyed by holding,
  /// not shard: a shard lost and taken back can have its old and new holdings in one commit.
  static func commit(_ batches: [ShardBatch], keys: ScaleOutKeys, eventsKept: Int, on connection: RESPConnection)
    throws(RESPError) -> [ShardHolding: FencedCommitOutcome]?
  {
    guard !batches.isEmpty else { return [:] }
    // What the decisions depend on: the leases, the last batches, the server's time (a search left
    // open by a dead worker is ended at it) and the open searches of the sessions concerned.
    var reads = [
      RESPCommand(
        "MGET",
        arguments: batches.flatMap { [keys.lease(shard: $0.holding.shard), keys.lastBatch(shard: $0.holding.shard)] }),
      RESPCommand("TIME"),
    ]
    let sessionsToLook = batches.map(Self.sessionsToLook)
    for (batch, sessions) in zip(batches, sessionsToLook) where !sessions.isEmpty {
      reads.append(RESPCommand("HMGET", arguments: [keys.openSearches(shard: batch.holding.shard)] + sessions))
    }
    return try WatchedTransaction.run(
      watching: batches.map { keys.fence(shard: $0.holding.shard) }, reading: reads, on: connection
    ) { seen throws(RESPError) -> TransactionStep<[ShardHolding: FencedCommitOutcome]> in
      guard seen.count == reads.count, let state = seen[0].array, state.count == 2 * batches.count else {
        return .finished(
          Dictionary(batches.map { ($0.holding, .failed("unexpected reply")) }, uniquingKeysWith: { first, _ in first })
        )
      }
      guard let now = ServerTime.milliseconds(seen[1]) else {
        throw .unexpectedReply(command: "TIME", reply: "something else", expected: ServerTime.expected)
      }
      var outcomes: [ShardHolding: FencedCommitOutcome] = [:]
      var writes = RESPRequest()
      var segments: [(holding: ShardHolding, range: Range<Int>)] = []
      var openReplies = seen[2...].makeIterator()
      for (index, batch) in batches.enumerated() {
        let sessions = sessionsToLook[index]
        let openValues = sessions.isEmpty ? [] : openReplies.next()?.array ?? []
        let shard = batch.holding.shard
        guard case .bulkString(let lease) = state[2 * index], lease.elementsEqual(batch.holding.lease.utf8) else {
          outcomes[batch.holding] = .fencedOut
          continue
        }
        if case .bulkString(let last) = state[2 * index + 1], last.elementsEqual(batch.id.utf8) {
          outcomes[batch.holding] = .committed
          continue
        }
        var open: [String: [UInt8]] = [:]
        for (session, value) in zip(sessions, openValues) {
          if case .bulkString(let bytes) = value { open[session] = bytes }
        }
        let first = writes.count
        var plan = ShardWrites(
          keys: keys, shard: shard, eventsKept: eventsKept, now: now, open: open, appendingTo: writes)
        // The request moves into the plan and back: appended to in place, not copied.
        writes = RESPRequest()
        plan.add(batch)
        writes = plan.request
        segments.append((batch.holding, first..<writes.count))
      }
      guard !segments.isEmpty else { return .finished(outcomes) }
      return .write(writes) { executed in
        for segment in segments {
          switch executed {
          case .executed(let results):
            let failure = results[segment.range].lazy.compactMap(\.errorMessage).first
            outcomes[segment.holding] = failure.map { .failed($0) } ?? .committed
          case .refused(let message):
            outcomes[segment.holding] = .failed(message)
          case .aborted:
            break
          }
        }
        return outcomes
      }
    }
  }

  /// The sessions whose open search the batch may start, end or replace.
  private static func sessionsToLook(_ batch: ShardBatch) -> [String] {
    var seen = Set<String>()
    var sessions: [String] = []
    for item in batch.items where item.eventClass.touchesTheOpenSearch {
      let session = item.session ?? ""
      if seen.insert(session).inserted { sessions.append(session) }
    }
    return sessions
  }
}
