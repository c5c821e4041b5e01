// The scripts and fenced steps that make the guarantees, run on a real redis-server: a lease goes
// to one worker with a growing token, a stale token commits nothing and reads nothing, an end is
// appended once however often its batch is sent again, a search ended in its own batch leaves
// nothing open, a dead worker's open search is ended when the next one opens, and trimming keeps
// every pending keystroke.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct CommitScriptTests {
  /// A connection with the scripts loaded, on a server of its own.
  private final class Bench {
    let server: RedisServer
    let link: RedisLink
    let connection: RESPConnection
    let keys: ScaleOutKeys

    init(server: RedisServer) throws {
      self.server = server
      keys = try ScaleOutKeys(prefix: "t")
      link = RedisLink(endpoint: server.endpoint, options: .init(), stop: nil, notice: { _ in })
      connection = try RESPConnection(endpoint: server.endpoint)
      _ = try link.perform { (nodes: LinkNodes) throws(RESPError) -> RESPValue in
        try nodes.connection(for: "").call(RESPCommand("PING"))
      }
    }

    func run(_ script: ScaleOutScript, keys: [String], _ arguments: [any RESPArgument]) throws -> RESPValue {
      try link.perform { (nodes: LinkNodes) throws(RESPError) -> RESPValue in
        try link.runScripts([ScriptCall(script: script, keys: keys, arguments: arguments)], on: nodes)[0]
      }
    }

    func acquire(_ worker: String, lease: Int = 60_000) throws -> String? {
      try run(
        .acquire, keys: [keys.lease(shard: 0), keys.fence(shard: 0), keys.keystrokes(shard: 0)],
        [lease, worker, "workers"]
      )
      .string
    }

    /// Appends keystrokes and reads them as `worker` holding `lease`: they are pending.
    func pendingKeystrokes(_ count: Int, lease: String, worker: String) throws -> [String] {
      for index in 0..<count {
        _ = try connection.call(
          RESPCommand("XADD", keys.keystrokes(shard: 0), "*", "term", "t\(index)", "session", "u1"))
      }
      let read = try FencedRead.read(
        [ShardHolding(shard: 0, lease: lease)], keys: keys, group: "workers", consumer: worker, count: 100,
        on: connection)
      guard case .entries(let entries) = read?[0] else { return [] }
      return entries.compactMap { $0.array?.first?.string }
    }

    /// Commits `events` (class, session, key, type, json, extra) and the acknowledgement of
    /// `acks` as batch `batch` (a new one each call unless given).
    func commit(lease: String, events: [TestEvent], acks: [String], batch: String = UUID().uuidString) throws
      -> FencedCommitOutcome?
    {
      let outcomes = try FencedCommit.commit(
        [shardBatch(lease: lease, events: events, acks: acks, batch: batch)], keys: keys, eventsKept: 1000,
        on: connection)
      return outcomes?[ShardHolding(shard: 0, lease: lease)]
    }

    /// Shard 0's batch of `events` and the acknowledgement of `acks`, as `lease` holds it.
    func shardBatch(lease: String, events: [TestEvent], acks: [String], batch: String = UUID().uuidString)
      -> ShardBatch
    {
      let holding = ShardHolding(shard: 0, lease: lease)
      var items = events.map { event in
        CommitItem(
          eventClass: event.eventClass, holding: holding, session: event.session.isEmpty ? nil : event.session,
          key: event.key, type: event.type, json: Array(event.json.utf8), extra: Array(event.extra.utf8), term: "t0",
          settlingID: "", acknowledged: [])
      }
      items.append(
        CommitItem(
          eventClass: .acknowledgement, holding: holding, session: nil, key: "", type: "", json: [], extra: [],
          settlingID: "",
          acknowledged: acks))
      return ShardBatch(holding: holding, id: batch, items: items)
    }

    func storedEvents() throws -> [(key: String, type: String, json: String)] {
      let reply = try connection.call(RESPCommand("XRANGE", keys.events(shard: 0), "-", "+"))
      return (reply.array ?? []).compactMap { entry in
        guard let fields = entry.array?.last?.array?.compactMap(\.string) else { return nil }
        var map: [String: String] = [:]
        for index in stride(from: 0, to: fields.count - 1, by: 2) { map[fields[index]] = fields[index + 1] }
        return (map["key"] ?? "", map["type"] ?? "", map["event"] ?? "")
      }
    }

    func pendingCount() throws -> Int64 {
      try connection.call(RESPCommand("XPENDING", keys.keystrokes(shard: 0), "workers")).array?.first?.integer ?? -1
    }
  }

  /// One event of a test batch, as the ledger would hand it to the commit.
  struct TestEvent {
    let eventClass: EventClass
    let session: String
    let key: String
    let type: String
    let json: String
    let extra: String
  }

  private func event(_ eventClass: EventClass, _ key: String, _ type: String, extra: String = "") -> TestEvent {
    TestEvent(
      eventClass: eventClass, session: "u1", key: key, type: type,
      json: "{\"type\":\"\(type)\",\"seq\":0,\"at_ms\":5,\"session\":\"u1\"}", extra: extra)
  }

  @Test func aLeaseGoesToOneWorkerWithAGrowingToken() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    #expect(try bench.acquire("w1") == "1:w1")
    #expect(try bench.acquire("w2") == nil, "held: nobody else gets it")
    #expect(try bench.run(.release, keys: [bench.keys.lease(shard: 0)], ["1:w2"]) == .integer(0))
    #expect(try bench.run(.renew, keys: [bench.keys.lease(shard: 0)], ["1:w2", 1000]) == .integer(0))
    #expect(try bench.run(.release, keys: [bench.keys.lease(shard: 0)], ["1:w1"]) == .integer(1))
    #expect(try bench.acquire("w2") == "2:w2")
  }

  @Test func aStaleTokenCommitsNothingAndAcknowledgesNothing() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let old = try #require(try bench.acquire("w1", lease: 60_000))
    let ids = try bench.pendingKeystrokes(2, lease: old, worker: "w1")
    _ = try bench.connection.call(RESPCommand("DEL", bench.keys.lease(shard: 0)))
    let new = try #require(try bench.acquire("w2"))
    #expect(new == "2:w2")
    let reply = try bench.commit(
      lease: old, events: [event(.end, "0/\(ids[1])/end", "results", extra: "0/\(ids[1])/search")],
      acks: ids)
    #expect(reply == .fencedOut)
    #expect(try bench.storedEvents().isEmpty)
    #expect(try bench.pendingCount() == 2)
  }

  @Test func aShardsOldAndNewHoldingsInOneCommitEachGetTheirOwnOutcome() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let old = try #require(try bench.acquire("w1"))
    let ids = try bench.pendingKeystrokes(2, lease: old, worker: "w1")
    _ = try bench.connection.call(RESPCommand("DEL", bench.keys.lease(shard: 0)))
    let new = try #require(try bench.acquire("w1"))
    // A shard lost and taken back: what the old holding left and the new one's events meet in one
    // commit. The old is fenced out, the new committed, and neither outcome hides the other.
    let batches = [
      bench.shardBatch(
        lease: old, events: [event(.end, "0/\(ids[0])/end", "results", extra: "0/\(ids[0])/search")], acks: [ids[0]]),
      bench.shardBatch(
        lease: new, events: [event(.end, "0/\(ids[1])/end", "results", extra: "0/\(ids[1])/search")], acks: [ids[1]]),
    ]
    let outcomes = try FencedCommit.commit(batches, keys: bench.keys, eventsKept: 1000, on: bench.connection)
    #expect(outcomes?[ShardHolding(shard: 0, lease: old)] == .fencedOut)
    #expect(outcomes?[ShardHolding(shard: 0, lease: new)] == .committed)
    #expect(try bench.storedEvents().map(\.key) == ["0/\(ids[1])/end"])
    #expect(try bench.pendingCount() == 1, "only the new holding's keystroke is acknowledged")
  }

  @Test func anEndIsAppendedOnceHoweverOftenItsCommitIsRepeated() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let lease = try #require(try bench.acquire("w1"))
    let ids = try bench.pendingKeystrokes(2, lease: lease, worker: "w1")
    let search = event(.search, "0/\(ids[1])/search", "search", extra: "0/\(ids[1])/end")
    let end = event(.end, "0/\(ids[1])/end", "results", extra: "0/\(ids[1])/search")
    #expect(try bench.commit(lease: lease, events: [search], acks: []) == .committed)
    // A reply lost, the same commit sent again: nothing is appended twice.
    for _ in 0..<3 {
      #expect(try bench.commit(lease: lease, events: [search, end], acks: ids, batch: "\(lease)#2") == .committed)
    }
    #expect(try bench.storedEvents().map(\.type) == ["search", "results"])
    #expect(try bench.pendingCount() == 0)
    let open = try bench.connection.call(RESPCommand("HLEN", bench.keys.openSearches(shard: 0)))
    #expect(open == .integer(0), "the end closed the open search")
  }

  @Test func theNextSearchEndsADeadWorkersOpenSearch() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let first = try #require(try bench.acquire("w1", lease: 60_000))
    let ids = try bench.pendingKeystrokes(2, lease: first, worker: "w1")
    let search = event(.search, "0/\(ids[0])/search", "search", extra: "0/\(ids[0])/end")
    #expect(try bench.commit(lease: first, events: [search], acks: []) == .committed)
    // w1 dies with its search open; w2 takes the shard, claims both keystrokes and searches the
    // later one.
    _ = try bench.connection.call(RESPCommand("DEL", bench.keys.lease(shard: 0)))
    let second = try #require(try bench.acquire("w2"))
    let newer = event(.search, "0/\(ids[1])/search", "search", extra: "0/\(ids[1])/end")
    let repeated = search
    #expect(try bench.commit(lease: second, events: [repeated, newer], acks: []) == .committed)
    let stored = try bench.storedEvents()
    #expect(stored.map(\.type) == ["search", "cancelled", "search"])
    #expect(stored.map(\.key) == ["0/\(ids[0])/search", "0/\(ids[0])/end", "0/\(ids[1])/search"])
    #expect(!stored[1].json.contains("\"at_ms\":0,"), "the server stamps the cancellation's instant")
    #expect(stored[1].json.contains("\"reason\":\"superseded\""))
    #expect(stored[1].json.contains("\"term\":\"t0\""), "made from the search's term")
  }

  @Test func aSearchAndItsEndInOneBatchLeaveNothingOpen() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let lease = try #require(try bench.acquire("w1"))
    let ids = try bench.pendingKeystrokes(1, lease: lease, worker: "w1")
    let search = event(.search, "0/\(ids[0])/search", "search", extra: "0/\(ids[0])/end")
    let end = event(.end, "0/\(ids[0])/end", "results", extra: "0/\(ids[0])/search")
    #expect(try bench.commit(lease: lease, events: [search, end], acks: ids) == .committed)
    #expect(try bench.storedEvents().map(\.type) == ["search", "results"])
    #expect(try bench.pendingCount() == 0)
    let open = try bench.connection.call(RESPCommand("HLEN", bench.keys.openSearches(shard: 0)))
    #expect(open == .integer(0))
  }

  @Test func aRepeatOfTheOpenSearchIsNotAppendedAgain() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let lease = try #require(try bench.acquire("w1"))
    let ids = try bench.pendingKeystrokes(1, lease: lease, worker: "w1")
    let search = event(.search, "0/\(ids[0])/search", "search", extra: "0/\(ids[0])/end")
    #expect(try bench.commit(lease: lease, events: [search, search], acks: []) == .committed)
    #expect(try bench.storedEvents().map(\.type) == ["search"])
  }

  @Test func aReadUnderAStaleLeaseDeliversNothing() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let old = try #require(try bench.acquire("w1", lease: 60_000))
    _ = try bench.connection.call(RESPCommand("DEL", bench.keys.lease(shard: 0)))
    let new = try #require(try bench.acquire("w2"))
    _ = try bench.connection.call(
      RESPCommand("XADD", bench.keys.keystrokes(shard: 0), "*", "term", "t", "session", "u"))
    let stale = try FencedRead.read(
      [ShardHolding(shard: 0, lease: old)], keys: bench.keys, group: "workers", consumer: "w1", count: 100,
      on: bench.connection)
    #expect(stale == [0: .refused])
    #expect(try bench.pendingCount() == 0, "nothing delivered to the worker whose lease is gone")
    let current = try FencedRead.read(
      [ShardHolding(shard: 0, lease: new)], keys: bench.keys, group: "workers", consumer: "w2", count: 100,
      on: bench.connection)
    guard case .entries(let entries) = current?[0] else {
      Issue.record("expected the keystroke, got \(String(describing: current))")
      return
    }
    #expect(entries.count == 1)
    #expect(try bench.pendingCount() == 1)
    let again = try FencedRead.read(
      [ShardHolding(shard: 0, lease: new)], keys: bench.keys, group: "workers", consumer: "w2", count: 100,
      on: bench.connection)
    let last = try #require(entries.first?.array?.first?.string)
    #expect(again == [0: .nothingAfter(last)], "nothing new: the id to wait after")
  }

  @Test func trimmingKeepsEveryPendingKeystroke() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let lease = try #require(try bench.acquire("w1"))
    let ids = try bench.pendingKeystrokes(5, lease: lease, worker: "w1")
    // The first two and the last are answered; the third is still pending.
    _ = try bench.connection.call(
      RESPCommand("XACK", bench.keys.keystrokes(shard: 0), "workers", ids[0], ids[1], ids[4]))
    let trimmed = try bench.run(.trim, keys: [bench.keys.lease(shard: 0), bench.keys.keystrokes(shard: 0)], [lease])
    #expect(trimmed == .integer(2))
    let left = try bench.connection.call(RESPCommand("XRANGE", bench.keys.keystrokes(shard: 0), "-", "+"))
    #expect(left.array?.compactMap { $0.array?.first?.string } == Array(ids[2...]))
    // Everything answered: trimmed up to the last delivered entry, which stays as the marker.
    _ = try bench.connection.call(RESPCommand("XACK", bench.keys.keystrokes(shard: 0), "workers", ids[2], ids[3]))
    #expect(
      try bench.run(.trim, keys: [bench.keys.lease(shard: 0), bench.keys.keystrokes(shard: 0)], [lease]) == .integer(2))
    #expect(try bench.connection.call(RESPCommand("XLEN", bench.keys.keystrokes(shard: 0))) == .integer(1))
    #expect(
      try bench.run(.trim, keys: [bench.keys.lease(shard: 0), bench.keys.keystrokes(shard: 0)], ["9:other"])
        == .integer(0))
  }
}
