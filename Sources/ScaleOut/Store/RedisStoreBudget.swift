// The shared store's request budgets: a reservation reads a budget under `WATCH`, lets the
// pipeline's rule decide on what it holds, and records the decision in `MULTI`/`EXEC` (the
// watched transaction); a reservation of another worker in between voids it, and it is read and
// decided again.
import Pipeline
import RESP
import Synchronization

extension RedisStore {
  /// Reads budget `name` under `WATCH`, decides, and records in `MULTI`/`EXEC`; decided again
  /// when another worker changed the budget in between.
  package func reserve<Decision: Sendable>(
    inBudget name: String, since: Int64, _ decide: ([BudgetEntry]) -> (Decision, record: BudgetEntry?)
  ) async throws(SharedStoreFailure) -> Decision {
    guard let reads else { throw .off }
    guard isOn else { throw .off }
    let granted = keys.budget(name)
    let ended = keys.budgetEnds(name)
    // One reservation at a time per store: its WATCH lives on the reads' connection from the read
    // to the EXEC, and another reservation's EXEC in between would end it.
    await gate.enter()
    defer { gate.leave() }
    for _ in 0..<Self.reservationAttempts {
      let read = await reads.run { link in Self.readBudget(granted: granted, ended: ended, link: link) }
      let budget: BudgetRead
      switch read {
      case .success(let value): budget = value
      case .failure(let failure):
        fail(failure)
        throw isOn ? .busy : .off
      }
      serverClock.correct(serverTime: budget.serverTime, sentAt: budget.sentAt, receivedAt: budget.receivedAt)
      let (decision, record) = decide(budget.entries.filter { $0.grantedAt >= since })
      let forgotten = budget.entries.filter { $0.grantedAt < since }.map(\.id)
      let written = await reads.run { link in
        Self.writeBudget(
          granted: granted, ended: ended, record: record, forgotten: forgotten, connection: budget.connection,
          link: link)
      }
      switch written {
      case .success(true): return decision
      case .success(false): continue  // Another worker wrote in between: read and decide again.
      case .failure(let failure):
        fail(failure)
        throw isOn ? .busy : .off
      }
    }
    throw .busy
  }

  /// A budget as read under `WATCH`, with the server's time and the local instants around it.
  private struct BudgetRead: Sendable {
    let entries: [BudgetEntry]
    let serverTime: Int64
    let sentAt: Int64
    let receivedAt: Int64
    /// The link's connection the `WATCH` is on: the write must use the same one.
    let connection: Int
  }

  private static func readBudget(granted: String, ended: String, link: RedisLink) -> Result<BudgetRead, LinkFailure> {
    let clock = SystemWallClock()
    return Result { () throws(LinkFailure) -> BudgetRead in
      try link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> BudgetRead in
        let connection = try nodes.connection(for: granted)
        let sentAt = clock.millisecondsSinceEpoch
        let replies = try WatchedTransaction.watch(
          [granted, ended],
          reading: [
            RESPCommand("TIME"), RESPCommand("ZRANGE", granted, "-inf", "+inf", "BYSCORE", "WITHSCORES"),
            RESPCommand("HGETALL", ended),
          ], on: connection)
        let receivedAt = clock.millisecondsSinceEpoch
        guard let time = ServerTime.milliseconds(replies[0]) else {
          throw .unexpectedReply(command: "TIME", reply: describe(replies[0]), expected: ServerTime.expected)
        }
        guard let entries = entries(granted: replies[1], ended: replies[2]) else {
          throw .server("the budget \(granted) holds something else: \(describe(replies[1]))")
        }
        return BudgetRead(
          entries: entries, serverTime: time, sentAt: sentAt, receivedAt: receivedAt,
          connection: link.connectionNumber)
      }
    }
  }

  /// Records `record` and forgets `forgotten` if nobody changed the budget since its read: true;
  /// false when somebody did (or the connection of the read is gone).
  private static func writeBudget(
    granted: String, ended: String, record: BudgetEntry?, forgotten: [String], connection number: Int,
    link: RedisLink
  ) -> Result<Bool, LinkFailure> {
    Result { () throws(LinkFailure) -> Bool in
      try link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> Bool in
        // A new connection has no WATCH: the read must be done again.
        guard link.connectionNumber == number else { return false }
        let connection = try nodes.connection(for: granted)
        var transaction = RESPRequest()
        if !forgotten.isEmpty {
          transaction.append(RESPCommand("ZREM", arguments: [granted] + forgotten))
          transaction.append(RESPCommand("HDEL", arguments: [ended] + forgotten))
        }
        if let record {
          transaction.append(RESPCommand("ZADD", granted, record.grantedAt, record.id))
          if let end = record.endedAt { transaction.append(RESPCommand("HSET", ended, record.id, end)) }
        }
        // Budgets nobody uses for a day go.
        transaction.append(RESPCommand("PEXPIRE", granted, 86_400_000))
        transaction.append(RESPCommand("PEXPIRE", ended, 86_400_000))
        switch try WatchedTransaction.execute(transaction, on: connection) {
        case .executed: return true
        case .aborted: return false
        case .refused(let message): throw .server(message)
        }
      }
    }
  }

  /// The budget's entries from its sorted set (`WITHSCORES`) and its hash of ends; nil when
  /// either reply is not what those commands give.
  static func entries(granted: RESPValue, ended: RESPValue) -> [BudgetEntry]? {
    guard let flat = granted.array, flat.count % 2 == 0, let endFlat = ended.array, endFlat.count % 2 == 0 else {
      return nil
    }
    var ends: [String: Int64] = [:]
    for index in stride(from: 0, to: endFlat.count, by: 2) {
      guard let id = endFlat[index].string, let end = endFlat[index + 1].string.flatMap({ Int64($0) }) else {
        return nil
      }
      ends[id] = end
    }
    var entries: [BudgetEntry] = []
    for index in stride(from: 0, to: flat.count, by: 2) {
      guard let id = flat[index].string, let score = flat[index + 1].string.flatMap({ Double($0) }),
        score.isFinite, abs(score) < 1e15
      else { return nil }
      entries.append(BudgetEntry(id: id, grantedAt: Int64(score), endedAt: ends[id]))
    }
    return entries
  }
}

/// Lets one task in at a time; the others wait in line, suspended.
final class AsyncGate: Sendable {
  private let state = Mutex<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

  func enter() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        guard state.busy else {
          state.busy = true
          return true
        }
        state.waiting.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  func leave() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiting.isEmpty else {
        state.busy = false
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}
