// An `events --follow` reader that falls behind the workers' retention, or whose Redis lost its
// data: it says what it missed (how many events, of which shards) or that the history is gone, as
// a Kafka consumer reports an offset out of range, and reads on. Through the binary against a real
// redis-server, and the rule itself on every kind of stream it can meet.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct EventGapTests {
  @Test func aFollowerBehindTheRetentionSaysHowManyItMissedOfWhichShards() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server, shards: 2)
    let worker = try deployment.worker("w1", extra: ["--events-kept", "100"])
    defer { worker.stop() }
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    _ = try await deployment.publish([#"{"term":"","session":"first"}"#])
    #expect(await follower.waitForOutput(within: Deployment.patience) { !$0.isEmpty })
    // Paused while a thousand events are committed and all but the last hundred or two per shard
    // trimmed.
    follower.signal(SIGSTOP)
    let sessions = (0..<1_000).map { "s\($0)" }
    _ = try await deployment.publish(sessions.map { #"{"term":"","session":"\#($0)"}"# })
    let added = try await entriesAdded(deployment, reaching: 1 + sessions.count)
    follower.signal(SIGCONT)
    #expect(await follower.waitForOutput(within: Deployment.patience) { $0.contains { $0.contains("\"s999\"") } })
    let warnings = follower.errorLines
    #expect(warnings.count == 1, "\(warnings)")
    let warning = try #require(warnings.first)
    #expect(warning.hasPrefix("Warning: missed "), "\(warning)")
    #expect(warning.hasSuffix("(the workers keep about --events-kept events per shard)"), "\(warning)")
    // "missed <total> events trimmed before they were read: <n> of shard 0, <m> of shard 1 (…)"
    let numbers = warning.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    try #require(numbers.count == 5, "\(warning)")
    #expect(numbers[2] == 0 && numbers[4] == 1, "both shards named: \(warning)")
    #expect(numbers[0] == numbers[1] + numbers[3])
    // Nothing is missed unsaid: what was printed and what was said missed are every event.
    #expect(follower.outputLines.count + numbers[0] == added, "\(follower.outputLines.count) + \(numbers[0])")
  }

  @Test func aFollowerSaysTheHistoryIsGoneAfterAnEmptyRestart() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server, shards: 1)
    let worker = try deployment.worker("w1")
    defer { worker.stop() }
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    _ = try await deployment.publish([#"{"term":"","session":"before"}"#])
    #expect(await follower.waitForOutput(within: Deployment.patience) { $0.contains { $0.contains("\"before\"") } })
    server.kill()
    try await server.restart()
    let gone =
      "Warning: the events of shard 0 are gone (Redis was flushed, or restarted without its data): those committed "
      + "after the last one read cannot be read; reading on"
    #expect(
      await follower.waitForErrorLines(within: Deployment.patience) { $0.contains(gone) }, "\(follower.errorLines)")
    // It reads on: what is committed after the restart comes.
    #expect(await worker.waitForError(within: Deployment.patience, containing: "'t:config' was gone"))
    _ = try await deployment.publish([#"{"term":"","session":"after"}"#])
    #expect(await follower.waitForOutput(within: Deployment.patience) { $0.contains { $0.contains("\"after\"") } })
    #expect(follower.errorLines.filter { $0 == gone }.count == 1, "said once: \(follower.errorLines)")
  }

  /// Waits until the shards' event streams have had `count` entries added in all; returns how many.
  private func entriesAdded(_ deployment: Deployment, reaching count: Int) async throws -> Int {
    let endpoint = deployment.server.endpoint
    let streams = try (0..<deployment.shards).map { try deployment.keys.events(shard: $0) }
    return try await OwnThread.value {
      let connection = try RESPConnection(endpoint: endpoint)
      defer { connection.close() }
      let clock = ContinuousClock()
      let deadline = clock.now.advanced(by: Deployment.patience)
      var total = 0
      while clock.now < deadline {
        let infos = try connection.pipeline(streams.map { RESPCommand("XINFO", "STREAM", $0) })
        total = infos.compactMap { StreamInfo($0)?.entriesAdded }.reduce(0) { $0 + Int($1) }
        if total >= count { return total }
        // Blocks until any of them has a new entry (or a second passes).
        let arguments: [any RESPArgument] = ["BLOCK", 1_000, "STREAMS"] + streams + streams.map { _ in "$" }
        _ = try connection.call(RESPCommand("XREAD", arguments: arguments), timeout: .seconds(60))
      }
      return total
    }
  }
}

/// The rule by which a page tells a reader what it missed.
@Suite struct EventGapRuleTests {
  private func info(length: Int64, added: Int64?, first: String?, last: String = "900-0") -> StreamInfo {
    StreamInfo(length: length, entriesAdded: added, firstID: first, lastGeneratedID: last)
  }

  @Test func aFreshReaderMissesNothingAndIsNumberedFromTheOldestEntry() {
    let result = EventPages.account(ShardCursor(), info: info(length: 100, added: 350, first: "500-0"), shard: 2)
    #expect(result.cursor == ShardCursor(id: "0-0", ordinal: 250))
    #expect(result.gap == nil && !result.readAgain)
  }

  @Test func aReaderStillWithinTheRetentionMissesNothing() {
    let cursor = ShardCursor(id: "600-0", ordinal: 300)
    let result = EventPages.account(cursor, info: info(length: 100, added: 350, first: "500-0"), shard: 2)
    #expect(result.cursor == cursor && result.gap == nil)
  }

  @Test func aReaderBehindTheOldestEntryIsToldHowManyWereTrimmed() {
    let cursor = ShardCursor(id: "100-0", ordinal: 40)
    let result = EventPages.account(cursor, info: info(length: 100, added: 350, first: "500-0"), shard: 2)
    #expect(result.gap == .trimmed(shard: 2, count: 210))
    #expect(result.cursor == ShardCursor(id: "100-0", ordinal: 250))
    // Read on from there: the page's entries follow the trimmed ones.
    #expect(EventPages.advanced(result.cursor, by: 3, to: "502-0") == ShardCursor(id: "502-0", ordinal: 253))
  }

  @Test func aPositionWhoseOwnEntryAloneWasTrimmedMissedNothing() {
    let cursor = ShardCursor(id: "499-0", ordinal: 250)
    let result = EventPages.account(cursor, info: info(length: 100, added: 350, first: "500-0"), shard: 0)
    #expect(result.gap == nil && result.cursor.ordinal == 250)
  }

  @Test func beforeRedis7AGapIsSaidWithoutACount() {
    let cursor = ShardCursor(id: "100-0", ordinal: nil)
    let result = EventPages.account(cursor, info: info(length: 100, added: nil, first: "500-0"), shard: 1)
    #expect(result.gap == .trimmed(shard: 1, count: nil))
  }

  @Test func aStreamGoneOrMadeAgainIsAHistoryLost() {
    let cursor = ShardCursor(id: "600-0", ordinal: 300)
    let gone = EventPages.account(cursor, info: nil, shard: 3)
    #expect(gone.gap == .historyLost(shard: 3) && gone.cursor == ShardCursor(id: "0-0", ordinal: 0))
    let fewer = EventPages.account(cursor, info: info(length: 5, added: 5, first: "700-0"), shard: 3)
    #expect(fewer.gap == .historyLost(shard: 3) && fewer.readAgain)
    let older = EventPages.account(cursor, info: info(length: 400, added: 400, first: "1-0", last: "590-0"), shard: 3)
    #expect(older.gap == .historyLost(shard: 3) && older.readAgain)
    // Read again from the start, the new stream's entries trimmed before they were read count.
    let again = EventPages.account(gone.cursor, info: info(length: 100, added: 130, first: "800-0"), shard: 3)
    #expect(again.gap == .trimmed(shard: 3, count: 30))
  }

  @Test func aStreamNotMadeYetIsNoLossAndEveryEntryItWillHoldCounts() {
    let result = EventPages.account(ShardCursor(), info: nil, shard: 0)
    #expect(result.gap == nil && result.cursor == ShardCursor(id: "0-0", ordinal: 0))
    let later = EventPages.account(result.cursor, info: info(length: 100, added: 180, first: "800-0"), shard: 0)
    #expect(later.gap == .trimmed(shard: 0, count: 80))
  }
}
