// Redis misbehaving under the three commands: not there at the start, restarted under running
// workers and `publish`, answering what Redis never would, or holding a different shard count.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct RedisFaultTests {
  private func run(_ arguments: [String]) async throws -> SubprocessResult {
    try await Subprocess.run(toolBinary(), arguments: arguments, input: Data("love\n".utf8))
  }

  @Test(arguments: ["publish", "worker", "events"])
  func redisUnreachableAtTheStartIsOneLineAndStatus69(command: String) async throws {
    let port = try LoopbackHTTPServer.closedPort()
    let result = try await run([command, "--redis", "redis://127.0.0.1:\(port)"])
    #expect(result.status == 69)
    #expect(
      result.stderr == "Error: cannot reach Redis at redis://127.0.0.1:\(port): cannot connect: Connection refused\n")
    #expect(result.stdout.isEmpty)
  }

  @Test(arguments: [
    ("$2000000000\r\n", "a bulk string of 2000000000 bytes (at most 67108864 accepted)"),
    ("*2000000000\r\n", "an array of 2000000000 elements (at most 1048576 accepted)"),
    (String(repeating: "*1\r\n", count: 100), "arrays nested deeper than 16"),
    ("HTTP/1.1 400 Bad Request\r\n\r\n", "a reply starting with byte 0x48 (not RESP2)"),
  ])
  func aHostileServerIsRefusedWithOneLine(reply: String, reason: String) async throws {
    let server = try ScriptedRESPServer(reply: Array(reply.utf8))
    defer { server.stop() }
    for command in ["publish", "worker", "events"] {
      let result = try await run([command, "--redis", server.url])
      #expect(result.status == 69, "\(command): \(result.stderr)")
      #expect(
        result.stderr == "Error: cannot reach Redis at \(server.url): not a valid reply: \(reason)\n", "\(command)")
    }
  }

  @Test func aWrongOrMissingPasswordIsOneLineAndStatus69() async throws {
    let server = try await RedisServer.start(extraArguments: ["--requirepass", "right"])
    defer { server.stop() }
    let refusals = [
      "redis://:wrong@127.0.0.1:\(server.port)":
        "WRONGPASS invalid username-password pair or user is disabled.",
      server.url: "NOAUTH Authentication required.",
    ]
    for (url, refusal) in refusals {
      for command in ["publish", "worker", "events"] {
        let result = try await run([command, "--redis", url])
        #expect(result.status == 69, "\(command) \(url): \(result.stderr)")
        #expect(
          result.stderr == "Error: cannot reach Redis at \(server.url): the server refused: \(refusal)\n",
          "\(command) \(url)")
      }
    }
    // The right one works.
    let right = try await run(["publish", "--redis", "redis://:right@127.0.0.1:\(server.port)"])
    #expect(right.status == 0, "\(right.stderr)")
  }

  @Test func aDifferentShardCountLaterIsAClearError() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let first = try await run(["publish", "--redis", server.url, "--shards", "4"])
    #expect(first.status == 0)
    for command in ["publish", "worker"] {
      let result = try await run([command, "--redis", server.url, "--shards", "8"])
      #expect(result.status == 64)
      #expect(
        result.stderr
          == "Error: --shards 8 differs from the 4 shards 'stream-search' was created with; use --shards 4, "
          + "or another --redis-prefix\n")
    }
    // Another prefix is another deployment.
    let other = try await run(["publish", "--redis", server.url, "--shards", "8", "--redis-prefix", "other"])
    #expect(other.status == 0)
  }

  @Test func aRestartUnderRunningWorkersAndPublishLosesNothing() async throws {
    let server = try await RedisServer.start(persistent: true)
    defer { server.stop() }
    let deployment = Deployment(server: server)
    let worker = try deployment.worker("w1", lease: "2s")
    defer { worker.stop() }
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
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    let before = (0..<10).map { "before\($0)" }
    writer.write(Data(before.map { #"{"term":"love","session":"\#($0)"}"# + "\n" }.joined().utf8))
    #expect(await Deployment.waitForResults(follower, sessions: Set(before), term: "love"))

    server.shutDown()
    // Typed while Redis is away: publish keeps them and sends them once it is back.
    let during = (0..<10).map { "during\($0)" }
    writer.write(Data(during.map { #"{"term":"story","session":"\#($0)"}"# + "\n" }.joined().utf8))
    #expect(await worker.waitForError(within: Deployment.patience, containing: "lost the connection"))
    try await server.restart()
    #expect(await Deployment.waitForResults(follower, sessions: Set(during), term: "story"))
    let after = (0..<10).map { "after\($0)" }
    writer.write(Data(after.map { #"{"term":"love","session":"\#($0)"}"# + "\n" }.joined().utf8))
    #expect(await Deployment.waitForResults(follower, sessions: Set(after), term: "love"))

    #expect(await worker.waitForError(within: Deployment.patience, containing: "reconnected to"))
    #expect(await publisher.waitForError(within: Deployment.patience, containing: "reconnected to"))
    for process in [worker, publisher] {
      let lines = process.errorLines
      #expect(lines.filter { $0.contains("lost the connection to \(server.url)") }.count == 1, "\(lines)")
      #expect(lines.filter { $0.contains("reconnected to \(server.url)") }.count == 1, "\(lines)")
    }
    let events = try await deployment.events()
    for session in before + during + after {
      let own = events.filter { $0.session == session }
      #expect(own.filter { $0.type == "results" }.count == 1, "\(session): \(own.map(\.type))")
    }
    #expect(endsStoredOnce(try deployment.storedEvents()).isEmpty)
  }
}
