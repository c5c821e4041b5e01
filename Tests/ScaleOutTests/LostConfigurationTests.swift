// Redis losing its data under running commands (`FLUSHALL`, a restart without persistence): the
// shard count is part of the data, fixed at first use, so the workers store it again and the next
// `publish` finds it; a count another command stored first stops every command that runs with the
// old one, with one line, rather than leaving sessions that nobody answers.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct LostConfigurationTests {
  enum Loss: String, CaseIterable {
    case flushed
    case restartedEmpty
  }

  @Test(arguments: Loss.allCases)
  func workersStoreTheShardCountAgainAndTheNextPublishUsesIt(loss: Loss) async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server)
    let worker = try deployment.worker("w1")
    defer { worker.stop() }
    #expect(await waitForAcquisitions(worker, count: deployment.shards))
    switch loss {
    case .flushed:
      let connection = try deployment.connection()
      _ = try connection.call(RESPCommand("FLUSHALL"))
      connection.close()
    case .restartedEmpty:
      server.kill()
      try await server.restart()
    }
    #expect(await worker.waitForError(within: Deployment.patience, containing: "'t:config' was gone"))
    let connection = try deployment.connection()
    defer { connection.close() }
    let keys = try deployment.keys
    #expect(try connection.call(RESPCommand("HGET", keys.configuration, "shards")).string == "4")
    // Without --shards, as after any restart: the count is the workers'.
    let sessions = (0..<40).map { "user-\($0)" }
    let published = try await Subprocess.run(
      toolBinary(), arguments: ["publish", "--redis", server.url, "--redis-prefix", "t"],
      input: Data(sessions.map { #"{"term":"love","session":"\#($0)"}"# + "\n" }.joined().utf8))
    #expect(published.status == 0, "\(published.stderr)")
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    #expect(await Deployment.waitForResults(follower, sessions: Set(sessions), term: "love"))
  }

  @Test func aCountStoredFirstByAnotherCommandStopsTheWorkerWithOneLine() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server)
    let worker = try deployment.worker("w1")
    defer { worker.stop() }
    #expect(await waitForAcquisitions(worker, count: deployment.shards))
    // Paused across the loss, so that a publish creates the prefix again before it can.
    worker.signal(SIGSTOP)
    let connection = try deployment.connection()
    defer { connection.close() }
    _ = try connection.call(RESPCommand("FLUSHALL"))
    let published = try await Subprocess.run(
      toolBinary(), arguments: ["publish", "--redis", server.url, "--redis-prefix", "t"], input: Data("love\n".utf8))
    #expect(published.status == 0)
    worker.signal(SIGCONT)
    #expect(await worker.waitForExit(within: Deployment.patience)?.status == 64)
    #expect(
      worker.errorLines.filter { $0.hasPrefix("Error:") }
        == [
          "Error: 't:config' now says 16 shards, this command runs with 4: Redis lost its data and another command "
            + "created 't' again; restart every command on it to use 16 shards"
        ], "\(worker.errorLines)")
  }

  @Test func aRunningPublishStopsAtACountStoredByAnotherCommand() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let publisher = try ToolProcess(
      toolBinary(),
      arguments: [
        "publish", "--redis", server.url, "--redis-prefix", "t", "--shards", "4", "--input", fifo, "--follow",
      ])
    defer { publisher.stop() }
    let writer = try #require(FileHandle(forWritingAtPath: fifo))
    defer { try? writer.close() }
    let connection = try RESPConnection(endpoint: server.endpoint)
    defer { connection.close() }
    let keys = try ScaleOutKeys(prefix: "t")
    // The first keystroke is stored under the count publish started with.
    try writer.write(contentsOf: Data("one\n".utf8))
    #expect(try await storedCount(keys, on: server, atLeast: 1))
    _ = try connection.call(RESPCommand("FLUSHALL"))
    _ = try connection.call(RESPCommand("HSET", keys.configuration, "shards", "16", "format", "1"))
    // It checks the count at most a second apart: keystrokes go on arriving until it does.
    var line = 1
    var exit: (status: Int32, bySignal: Bool)?
    let deadline = ContinuousClock.now + Deployment.patience
    while exit == nil, ContinuousClock.now < deadline {
      line += 1
      // Once it has exited, the FIFO has no reader: the write fails, and the loop ends.
      do { try writer.write(contentsOf: Data("word\(line)\n".utf8)) } catch { break }
      exit = await publisher.waitForExit(within: .milliseconds(100))
    }
    if exit == nil { exit = await publisher.waitForExit(within: Deployment.patience) }
    #expect(exit?.status == 64)
    let message = publisher.errorLines.last ?? ""
    let expected =
      "Error: 't:config' now says 16 shards, this command runs with 4: Redis lost its data and another command "
      + "created 't' again; restart every command on it to use 16 shards; "
    #expect(message.hasPrefix(expected), "\(publisher.errorLines)")
    #expect(message.range(of: #" keystrokes stored; resume from input line \d+$"#, options: .regularExpression) != nil)
  }

  /// Waits until the prefix's keystroke streams hold `count` entries in all.
  private func storedCount(_ keys: ScaleOutKeys, on server: RedisServer, atLeast count: Int64) async throws -> Bool {
    let endpoint = server.endpoint
    return try await OwnThread.value {
      let connection = try RESPConnection(endpoint: endpoint)
      defer { connection.close() }
      let streams = (0..<4).map { keys.keystrokes(shard: $0) }
      let clock = ContinuousClock()
      let deadline = clock.now.advanced(by: Deployment.patience)
      while clock.now < deadline {
        let lengths = try connection.pipeline(streams.map { RESPCommand("XLEN", $0) })
        if lengths.compactMap(\.integer).reduce(0, +) >= count { return true }
        // Blocks until an entry arrives on any of them (or a second passes).
        let arguments: [any RESPArgument] = ["BLOCK", 1_000, "STREAMS"] + streams + streams.map { _ in "$" }
        _ = try connection.call(RESPCommand("XREAD", arguments: arguments), timeout: .seconds(60))
      }
      return false
    }
  }
}
