// A stop request (SIGINT, SIGTERM) is acted on wherever a command waits for Redis: a server that
// accepted the connection and never answers, a server gone while `publish` still holds keystrokes
// its input has finished giving. The command exits with the signal's status and says what was not
// stored; it never waits for a reply timeout, let alone for ever.
import Foundation
import RESP
import Synchronization
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct StopWhileRedisIsAwayTests {
  /// Every command, its first command to Redis left unanswered, stops at SIGINT with status 130
  /// and nothing on stderr. (Waiting for the reply timeout instead would end in status 69 and
  /// "no answer within 5.0 seconds".)
  @Test(arguments: ["publish", "worker", "events"])
  func aServerThatNeverAnswersHoldsNoCommandPastAStop(command: String) async throws {
    // The signal is sent by the server's own thread the moment the command arrives: a test task
    // that a loaded machine runs seconds late must not turn this into a race with the timeout.
    let target = Mutex<ToolProcess?>(nil)
    let server = try FakeRedisServer { _ in
      target.withLock { $0 }?.signal(SIGINT)
      return .silence
    }
    defer { server.stop() }
    let catalog = SharedFixtures.projectFolder("interactive-catalog.json").path
    let extra = command == "worker" ? ["--catalog", catalog] : []
    let process = try ToolProcess(
      toolBinary(), arguments: [command, "--redis", server.url] + extra, input: Data("love\n".utf8))
    defer { process.stop() }
    target.withLock { $0 = process }
    // Sent here too, should the command have come before the process was known (a second
    // signal changes nothing).
    #expect(await server.waitForCommand(within: Deployment.patience) { _ in true })
    process.signal(SIGINT)
    let exit = await process.waitForExit(within: Deployment.patience)
    #expect(exit?.status == 130, "\(process.errorLines)")
    #expect(process.errorLines.isEmpty, "\(process.errorLines)")
  }

  /// `publish` whose input has ended while Redis is away: SIGINT ends it after the grace it gives
  /// pending keystrokes (2 s), with status 130 and one line saying what was stored and where to
  /// resume.
  @Test func publishWhoseInputEndedWhileRedisIsAwayStopsAtASignal() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let publisher = try ToolProcess(
      toolBinary(),
      arguments: ["publish", "--redis", server.url, "--redis-prefix", "t", "--shards", "1", "--input", fifo])
    defer { publisher.stop() }
    let writer = try #require(FileHandle(forWritingAtPath: fifo))
    // Connected (the shard count is settled before the input is read): now Redis goes.
    #expect(await waitForConfiguration(of: "t", on: server))
    server.kill()
    try writer.write(contentsOf: Data("one\ntwo\nthree\n".utf8))
    try writer.close()
    #expect(await publisher.waitForError(within: Deployment.patience, containing: "lost the connection"))
    // The signal must come after the end of the input was read: the case where it was ignored.
    #expect(await waitUntilClosed(fifo, by: publisher.processIdentifier))
    publisher.signal(SIGINT)
    let exit = await publisher.waitForExit(within: Deployment.patience)
    #expect(exit?.status == 130)
    #expect(
      publisher.errorLines.last
        == "Warning: stopped before Redis acknowledged every keystroke: 0 of 3 keystrokes stored; resume from input "
        + "line 1", "\(publisher.errorLines)")
  }

  /// Waits until process `pid` has closed `path` (it closes its input once read to the end), at
  /// most the patience of the tests. Where there is no /proc, returns at once.
  private func waitUntilClosed(_ path: String, by pid: Int32) async -> Bool {
    let directory = "/proc/\(pid)/fd"
    guard FileManager.default.fileExists(atPath: directory) else { return true }
    return
      (try? await OwnThread.value {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Deployment.patience)
        while clock.now < deadline {
          let open = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
          let targets = open.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)")
          }
          if !targets.contains(path) { return true }
          // The kernel tells nobody when a descriptor closes: look again in a moment.
          _ = poll(nil, 0, 10)
        }
        return false
      }) ?? false
  }

  /// Waits until the prefix's configuration is stored, at most the patience of the tests.
  private func waitForConfiguration(of prefix: String, on server: RedisServer) async -> Bool {
    let endpoint = server.endpoint
    let key = "\(prefix):config"
    return
      (try? await OwnThread.value {
        let connection = try RESPConnection(endpoint: endpoint)
        defer { connection.close() }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Deployment.patience)
        while clock.now < deadline {
          if try connection.call(RESPCommand("EXISTS", key)) == .integer(1) { return true }
          // Nothing to block on for a hash: a short pause between looks, bounded by the deadline.
          _ = try connection.call(RESPCommand("BLPOP", "\(prefix):never", "0.05"), timeout: .seconds(60))
        }
        return false
      }) ?? false
  }
}
