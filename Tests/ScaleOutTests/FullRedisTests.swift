// A full Redis (`maxmemory` reached under `noeviction`): every write is refused with `-OOM`.
// `publish` says so, how many keystrokes were stored and from which input line to resume, and
// exits 75 (EX_TEMPFAIL); a command starting on it says the same, never that the prefix is
// foreign; a running worker keeps its events, says once that it waits for room, and commits them
// when Redis has room again.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct FullRedisTests {
  private static let refusal = "OOM command not allowed when used memory > 'maxmemory'."

  @Test func publishIntoAFullRedisSaysWhatWasStoredAndWhereToResume() async throws {
    let server = try await RedisServer.start(extraArguments: ["--maxmemory", "2mb", "--maxmemory-policy", "noeviction"])
    defer { server.stop() }
    // About 6 MB of keystrokes for 2 MB: Redis fills up on the way.
    let padding = String(repeating: "x", count: 80)
    let lines = (1...60_000).map { #"{"term":"\#($0) \#(padding)","session":"s\#($0 % 50)"}"# }
    let result = try await Subprocess.run(
      toolBinary(), arguments: ["publish", "--redis", server.url], input: Data(lines.map { $0 + "\n" }.joined().utf8))
    #expect(result.status == 75)
    let prefix = "Error: Redis at \(server.url) is out of memory (\(Self.refusal)); "
    let message = result.stderr
    #expect(message.hasPrefix(prefix) && message.filter { $0 == "\n" }.count == 1, "\(message)")
    // "<stored> of <read> keystrokes stored; resume from input line <line>"
    let numbers = message.dropFirst(prefix.count).split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    try #require(numbers.count == 3, "\(message)")
    let (stored, read, resume) = (numbers[0], numbers[1], numbers[2])
    #expect(stored > 0 && stored < read && resume <= stored + 1 && resume <= read, "\(message)")
    // Every keystroke before the line to resume from is stored, and the count is what is there.
    let terms = try storedTerms(on: server)
    #expect(terms.count == stored)
    #expect((1..<resume).allSatisfy { terms.contains("\($0) \(padding)") })
    #expect(!terms.contains("\(resume) \(padding)"))

    let again = try await Subprocess.run(
      toolBinary(), arguments: ["publish", "--redis", server.url], input: Data("a\n".utf8))
    let catalog = SharedFixtures.projectFolder("interactive-catalog.json").path
    let worker = try await Subprocess.run(
      toolBinary(), arguments: ["worker", "--redis", server.url, "--catalog", catalog])
    for command in [again, worker] {
      #expect(command.status == 75)
      #expect(
        command.stderr
          == "Error: Redis at \(server.url) is out of memory (\(Self.refusal)); free memory there or raise its "
          + "maxmemory, then run this again\n")
    }
  }

  @Test func aRunningWorkerKeepsItsEventsUntilRedisHasRoom() async throws {
    let server = try await RedisServer.start(extraArguments: ["--maxmemory-policy", "noeviction"])
    defer { server.stop() }
    let deployment = Deployment(server: server)
    let worker = try deployment.worker("w1", lease: "60s")
    defer { worker.stop() }
    #expect(await waitForAcquisitions(worker, count: deployment.shards))
    // Paused while keystrokes arrive and Redis fills up: its first commit meets a full Redis.
    worker.signal(SIGSTOP)
    let sessions = (0..<20).map { "s\($0)" }
    let published = try await deployment.publish(
      sessions.flatMap { [#"{"term":"lo","session":"\#($0)"}"#, #"{"term":"love","session":"\#($0)"}"#] })
    #expect(published.status == 0, "\(published.stderr)")
    let connection = try deployment.connection()
    defer { connection.close() }
    #expect(try connection.call(RESPCommand("CONFIG", "SET", "maxmemory", "1")) == .simpleString("OK"))
    worker.signal(SIGCONT)
    #expect(await worker.waitForError(within: Deployment.patience, containing: "is out of memory (\(Self.refusal))"))
    #expect(try connection.call(RESPCommand("CONFIG", "SET", "maxmemory", "0")) == .simpleString("OK"))
    #expect(await worker.waitForError(within: Deployment.patience, containing: "has room again"))
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    #expect(await Deployment.waitForResults(follower, sessions: Set(sessions), term: "love"))
    let warnings = worker.errorLines.filter { $0.hasPrefix("Warning:") }
    #expect(warnings.count == 2, "one line when Redis is full, one when it has room: \(warnings)")
    #expect(endsStoredOnce(try deployment.storedEvents()).isEmpty)
  }

  /// The terms of every keystroke stored under the default prefix.
  private func storedTerms(on server: RedisServer) throws -> Set<String> {
    let connection = try RESPConnection(endpoint: server.endpoint)
    defer { connection.close() }
    let keys = try ScaleOutKeys(prefix: ScaleOutKeys.defaultPrefix)
    var terms = Set<String>()
    for shard in 0..<ShardCount.defaultCount {
      let entries = try connection.call(
        RESPCommand("XRANGE", keys.keystrokes(shard: shard), "-", "+"), timeout: .seconds(60))
      for entry in entries.array ?? [] {
        let fields = entry.array?.last?.array?.compactMap(\.string) ?? []
        if let index = fields.firstIndex(of: "term"), index + 1 < fields.count { terms.insert(fields[index + 1]) }
      }
    }
    return terms
  }
}
