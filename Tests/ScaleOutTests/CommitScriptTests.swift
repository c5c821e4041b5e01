// The scripts that make the guarantees, run on a real redis-server: a lease goes to one worker
// with a growing token, a stale token commits nothing, an end is appended once however often its
// batch is sent again, a search ended in its own batch leaves nothing open, a dead worker's open search is ended when the next one opens, and trimming
// keeps every pending keystroke.
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
      _ = try link.perform { (connection: RESPConnection) throws(RESPError) -> RESPValue in
        try connection.call(RESPCommand("PING"))
      }
    }

    func run(_ script: ScaleOutScript, keys: [String], _ arguments: [any RESPArgument]) throws -> RESPValue {
      try link.perform { (connection: RESPConnection) throws(RESPError) -> RESPValue in
        try link.runScripts([ScriptCall(script: script, keys: keys, arguments: arguments)], on: connection)[0]
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
      let reply = try run(
        .read, keys: [keys.lease(shard: 0), keys.keystrokes(shard: 0)], [lease, "workers", worker, 100])
      return (reply.array ?? []).compactMap { $0.array?.first?.string }
    }

    /// Commits `events` as batch `batch` (a new one each call unless given).
    func commit(lease: String, events: [[String]], acks: [String], batch: String = UUID().uuidString) throws
      -> RESPValue
    {
      let flat = events.flatMap { $0 } as [any RESPArgument]
      return try run(
        .commit,
        keys: [
          keys.lease(shard: 0), keys.keystrokes(shard: 0), keys.events(shard: 0), keys.openSearches(shard: 0),
          keys.lastBatch(shard: 0),
        ],
        ["\(lease)", "workers", 1000, batch, events.count] + flat + acks)
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

  private func event(_ eventClass: String, _ key: String, _ type: String, settle: String, extra: String = "")
    -> [String]
  {
    [eventClass, "u1", key, type, "{\"type\":\"\(type)\",\"seq\":0,\"at_ms\":5,\"session\":\"u1\"}", extra, settle]
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
      lease: old, events: [event("e", "0/\(ids[1])/end", "results", settle: ids[1], extra: "0/\(ids[1])/search")],
      acks: ids)
    #expect(reply == .integer(0))
    #expect(try bench.storedEvents().isEmpty)
    #expect(try bench.pendingCount() == 2)
  }

  @Test func anEndIsAppendedOnceHoweverOftenItsCommitIsRepeated() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let lease = try #require(try bench.acquire("w1"))
    let ids = try bench.pendingKeystrokes(2, lease: lease, worker: "w1")
    let search = event("s", "0/\(ids[1])/search", "search", settle: ids[1], extra: "0/\(ids[1])/end\nSUP\nCLR")
    let end = event("e", "0/\(ids[1])/end", "results", settle: ids[1], extra: "0/\(ids[1])/search")
    #expect(try bench.commit(lease: lease, events: [search], acks: []) == .integer(1))
    // A reply lost, the same commit sent again: nothing is appended twice.
    for _ in 0..<3 {
      #expect(try bench.commit(lease: lease, events: [search, end], acks: ids, batch: "\(lease)#2") == .integer(1))
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
    let cancelled = #"{"type":"cancelled","seq":0,"at_ms":0,"session":"u1","term":"t0","reason":"superseded"}"#
    let search = event("s", "0/\(ids[0])/search", "search", settle: ids[0], extra: "0/\(ids[0])/end\n\(cancelled)\nCLR")
    #expect(try bench.commit(lease: first, events: [search], acks: []) == .integer(1))
    // w1 dies with its search open; w2 takes the shard, claims both keystrokes and searches the
    // later one.
    _ = try bench.connection.call(RESPCommand("DEL", bench.keys.lease(shard: 0)))
    let second = try #require(try bench.acquire("w2"))
    let newer = event("s", "0/\(ids[1])/search", "search", settle: ids[1], extra: "0/\(ids[1])/end\nSUP\nCLR")
    let repeated = search
    #expect(try bench.commit(lease: second, events: [repeated, newer], acks: []) == .integer(1))
    let stored = try bench.storedEvents()
    #expect(stored.map(\.type) == ["search", "cancelled", "search"])
    #expect(stored.map(\.key) == ["0/\(ids[0])/search", "0/\(ids[0])/end", "0/\(ids[1])/search"])
    #expect(!stored[1].json.contains("\"at_ms\":0,"), "the server stamps the cancellation's instant")
    #expect(stored[1].json.contains("\"reason\":\"superseded\""))
  }

  @Test func aSearchAndItsEndInOneBatchLeaveNothingOpen() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let bench = try Bench(server: server)
    let lease = try #require(try bench.acquire("w1"))
    let ids = try bench.pendingKeystrokes(1, lease: lease, worker: "w1")
    let search = event("S", "0/\(ids[0])/search", "search", settle: ids[0], extra: "0/\(ids[0])/end\nSUP\nCLR")
    let end = event("E", "0/\(ids[0])/end", "results", settle: ids[0], extra: "0/\(ids[0])/search")
    #expect(try bench.commit(lease: lease, events: [search, end], acks: ids) == .integer(1))
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
    let search = event("s", "0/\(ids[0])/search", "search", settle: ids[0], extra: "0/\(ids[0])/end\nSUP\nCLR")
    #expect(try bench.commit(lease: lease, events: [search, search], acks: []) == .integer(1))
    #expect(try bench.storedEvents().map(\.type) == ["search"])
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
