// The one watched-transaction protocol and the one `TIME` parser every fenced step and budget
// uses: a write of another client between the read and `EXEC` voids the transaction, a decision
// with nothing to write ends the watch, a command refused when queued is the reason given, and
// `TIME`'s reply is read the same way wherever it is read.
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite struct ServerTimeTests {
  @Test(arguments: [
    (
      RESPValue.array([.bulkString(Array("1700000000".utf8)), .bulkString(Array("123456".utf8))]),
      Int64(1_700_000_000_123)
    ),
    (.array([.integer(1), .integer(999_999)]), 1_999),
    (.array([.bulkString(Array("0".utf8)), .bulkString(Array("0".utf8))]), 0),
  ])
  func aWellFormedReplyIsMilliseconds(reply: RESPValue, expected: Int64) {
    #expect(ServerTime.milliseconds(reply) == expected)
  }

  @Test(arguments: [
    RESPValue.array([.bulkString(Array("-1".utf8)), .bulkString(Array("0".utf8))]),
    .array([.bulkString(Array("1".utf8)), .bulkString(Array("1000000".utf8))]),
    .array([.bulkString(Array("1".utf8)), .bulkString(Array("-5".utf8))]),
    .array([.bulkString(Array("99999999999999".utf8)), .bulkString(Array("0".utf8))]),
    .array([.bulkString(Array("1.5".utf8)), .bulkString(Array("0".utf8))]),
    .array([.bulkString(Array("1".utf8))]),
    .array([.bulkString(Array("1".utf8)), .bulkString(Array("2".utf8)), .bulkString(Array("3".utf8))]),
    .array([.null, .null]),
    .bulkString(Array("1700000000".utf8)),
    .null,
  ])
  func anythingElseIsNoInstant(reply: RESPValue) {
    #expect(ServerTime.milliseconds(reply) == nil)
  }
}

@Suite(.needsRedis) struct WatchedTransactionTests {
  private func increment(_ key: String, on connection: RESPConnection) -> TransactionStep<Int64?> {
    var writes = RESPRequest()
    writes.append("INCR", key)
    return .write(writes) { outcome in
      guard case .executed(let replies) = outcome else { return nil }
      return replies.first?.integer
    }
  }

  @Test func aWriteInBetweenVoidsTheTransactionAndNothingRuns() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let connection = try RESPConnection(endpoint: server.endpoint)
    let other = try RESPConnection(endpoint: server.endpoint)
    let result = try WatchedTransaction.run(
      watching: ["w"], reading: [RESPCommand("GET", "w")], on: connection
    ) { _ throws(RESPError) -> TransactionStep<Int64?> in
      _ = try other.call(RESPCommand("SET", "w", "theirs"))
      return increment("n", on: connection)
    }
    #expect(result == nil)
    #expect(try other.call(RESPCommand("GET", "n")) == .null)
    let again = try WatchedTransaction.run(watching: ["w"], reading: [], on: connection) {
      _ throws(RESPError) -> TransactionStep<Int64?> in increment("n", on: connection)
    }
    #expect(again == .some(1))
  }

  @Test func aDecisionWithNothingToWriteEndsTheWatch() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let connection = try RESPConnection(endpoint: server.endpoint)
    let other = try RESPConnection(endpoint: server.endpoint)
    let seen = try WatchedTransaction.run(
      watching: ["w"], reading: [RESPCommand("GET", "w")], on: connection
    ) { replies throws(RESPError) -> TransactionStep<RESPValue?> in .finished(replies.first) }
    #expect(seen == .some(.null))
    // The watch is over: a later write of another client voids nothing.
    _ = try other.call(RESPCommand("SET", "w", "theirs"))
    let outcome = try WatchedTransaction.execute(
      {
        var writes = RESPRequest()
        writes.append("SET", "mine", "1")
        return writes
      }(), on: connection)
    #expect(outcome == .executed([.simpleString("OK")]))
  }

  @Test func aCommandRefusedWhenQueuedIsTheReason() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let connection = try RESPConnection(endpoint: server.endpoint)
    _ = try WatchedTransaction.watch(["w"], reading: [], on: connection)
    var writes = RESPRequest()
    writes.append("SET", "a", "1")
    writes.append("NOSUCHCOMMAND", "x")
    let outcome = try WatchedTransaction.execute(writes, on: connection)
    guard case .refused(let reason) = outcome else {
      Issue.record("expected a refusal, got \(outcome)")
      return
    }
    #expect(reason.contains("unknown command"))
    #expect(try connection.call(RESPCommand("GET", "a")) == .null)
  }

  @Test func anErrorOfOneCommandInsideIsThatCommandsReply() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let connection = try RESPConnection(endpoint: server.endpoint)
    _ = try connection.call(RESPCommand("SET", "s", "text"))
    _ = try WatchedTransaction.watch(["s"], reading: [], on: connection)
    var writes = RESPRequest()
    writes.append("INCR", "s")
    writes.append("SET", "b", "2")
    let outcome = try WatchedTransaction.execute(writes, on: connection)
    guard case .executed(let replies) = outcome, replies.count == 2 else {
      Issue.record("expected two replies, got \(outcome)")
      return
    }
    #expect(replies[0].errorMessage != nil)
    #expect(replies[1] == .simpleString("OK"))
  }
}
