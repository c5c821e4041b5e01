// Publish, a worker and events through the built binary against a real redis-server: many
// sessions answered once each and in order, what SIGTERM gives back, bad input from the tool and
// from a foreign producer, trimming and retention.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct WorkerBinaryTests {
  @Test func manySessionsAreEachAnsweredOnceInOrder() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server)
    let worker = try deployment.worker("w1")
    defer { worker.stop() }
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    let sessions = (0..<200).map { "user-\($0)" }
    var lines: [String] = []
    for prefix in ["t", "ta", "tay", "tayl", "taylor"] {
      for session in sessions { lines.append(#"{"term":"\#(prefix)","session":"\#(session)"}"#) }
    }
    let published = try await deployment.publish(lines)
    #expect(published.status == 0, "\(published.stderr)")
    #expect(published.stdout.isEmpty)
    #expect(await Deployment.waitForResults(follower, sessions: Set(sessions), term: "taylor"))
    let events = try await deployment.events()
    #expect(events.map(\.seq) == Array(1...events.count), "events numbers what it prints")
    for session in sessions {
      let own = events.filter { $0.session == session }
      #expect(
        problems(in: own, lastTerm: "taylor") == nil, "\(session): \(problems(in: own, lastTerm: "taylor") ?? "")")
    }
    #expect(endsStoredOnce(try deployment.storedEvents()).isEmpty)
    // The session filter reads one shard and keeps that session's events only.
    let one = try await deployment.events(extra: ["--session", "user-7"])
    #expect(!one.isEmpty && one.allSatisfy { $0.session == "user-7" })
    #expect(one.map(\.type) == events.filter { $0.session == "user-7" }.map(\.type))
  }

  @Test func sigtermGivesEveryShardBackAtOnce() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server)
    let worker = try deployment.worker("w1", lease: "60s")
    defer { worker.stop() }
    let acquiredAll = await waitForAcquisitions(worker, count: deployment.shards)
    #expect(acquiredAll)
    worker.signal(SIGTERM)
    let exit = await worker.waitForExit(within: Deployment.patience)
    #expect(exit?.status == 143)
    // With a 60 s lease, only a release can have freed the shards by now.
    let connection = try deployment.connection()
    let keys = try deployment.keys
    let leases = try connection.call(
      RESPCommand("MGET", arguments: (0..<deployment.shards).map { keys.lease(shard: $0) }))
    #expect(leases.array?.allSatisfy(\.isNull) == true, "\(leases)")
    #expect(try connection.call(RESPCommand("ZSCORE", keys.workers, "w1")) == .null)
  }

  @Test func badLinesAreInputErrorsOfPublishAndBadEntriesOfTheWorker() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server, shards: 1)
    let published = try await deployment.publish([#"{"term": 5}"#, #"{"term":"love","session":"a"}"#])
    #expect(published.status == 0)
    let errorLine = try #require(Event(line: published.stdout.split(separator: "\n").first.map(String.init) ?? ""))
    #expect(errorLine.type == "input_error")
    // A web tier that forgets the term, or sends bytes that are not UTF-8.
    let connection = try deployment.connection()
    let keys = try deployment.keys
    _ = try connection.call(RESPCommand("XADD", keys.keystrokes(shard: 0), "*", "session", "b"))
    _ = try connection.call(
      RESPCommand("XADD", keys.keystrokes(shard: 0), "*", "term", [UInt8]([0xFF, 0xFE]), "session", "c"))
    // One past the longest term an input line may carry.
    _ = try connection.call(
      RESPCommand(
        "XADD", keys.keystrokes(shard: 0), "*", "term", [UInt8](repeating: 0x61, count: (1 << 20) + 1), "session", "d"))
    let worker = try deployment.worker("w1")
    defer { worker.stop() }
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    let seen = await follower.waitForOutput(within: Deployment.patience) { lines in
      let events = lines.compactMap(Event.init)
      return events.contains { $0.type == "results" && $0.session == "a" }
        && events.filter { $0.type == "input_error" }.count == 3
    }
    #expect(seen, "\(follower.outputLines)")
    let events = follower.outputLines.compactMap(Event.init)
    #expect(Set(events.filter { $0.type == "input_error" }.compactMap(\.session)) == ["b", "c", "d"])
    let pending = try connection.call(RESPCommand("XPENDING", keys.keystrokes(shard: 0), "workers"))
    #expect(pending.array?.first == .integer(0), "every entry, bad ones too, is acknowledged")
  }

  @Test func acknowledgedKeystrokesAreTrimmedAndPendingOnesKept() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server, shards: 1)
    let worker = try deployment.worker("w1", extra: ["--latency", "600s"])
    defer { worker.stop() }
    #expect(await waitForAcquisitions(worker, count: 1))
    // Answered at once: cleared fields; never answered (the catalog takes 600 s): one search.
    let published = try await deployment.publish(
      (0..<30).map { #"{"term":"","session":"quick-\#($0)"}"# } + [#"{"term":"love","session":"slow"}"#])
    #expect(published.status == 0)
    #expect(await worker.waitForError(within: Deployment.patience, containing: "trimmed"))
    let connection = try deployment.connection()
    let keys = try deployment.keys
    let left = try connection.call(RESPCommand("XRANGE", keys.keystrokes(shard: 0), "-", "+")).array ?? []
    let terms = left.compactMap { entry -> String? in
      let fields = entry.array?.last?.array?.compactMap(\.string) ?? []
      return fields.firstIndex(of: "session").map { fields[$0 + 1] }
    }
    #expect(terms == ["slow"], "only the pending keystroke is left: \(terms)")
  }

  @Test func eventsBeyondTheRetentionAreTrimmed() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server, shards: 1)
    let worker = try deployment.worker("w1", extra: ["--events-kept", "100"])
    defer { worker.stop() }
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    let sessions = (0..<400).map { "s\($0)" }
    _ = try await deployment.publish(sessions.map { #"{"term":"","session":"\#($0)"}"# })
    // One shard: its events are committed in the order the keystrokes came, so the last
    // session's is the last event (a slow reader may miss the oldest: they are trimmed).
    let last = await follower.waitForOutput(within: Deployment.patience) { lines in
      lines.contains { $0.contains("\"session\":\"s399\"") }
    }
    #expect(last)
    let length = try deployment.connection().call(RESPCommand("XLEN", try deployment.keys.events(shard: 0))).integer
    // Redis trims whole nodes of 100 entries with MAXLEN ~: between 100 and 200 are left.
    #expect((100...200).contains(length ?? 0), "\(String(describing: length))")
  }

  @Test func eventsStopsQuietlyWhenItsReaderGoes() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server, shards: 1)
    let worker = try deployment.worker("w1")
    defer { worker.stop() }
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    _ = try await deployment.publish((0..<50).map { #"{"term":"","session":"s\#($0)"}"# })
    #expect(await follower.waitForOutput(within: Deployment.patience) { $0.count >= 50 })
    let result = try await Subprocess.run(
      toolBinary(), arguments: ["events", "--redis", server.url, "--redis-prefix", "t"], standardOutputClosed: true)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
  }
}

/// Waits until `worker`'s stderr says it acquired `count` shards.
func waitForAcquisitions(_ worker: ToolProcess, count: Int) async -> Bool {
  await worker.waitForErrorLines(within: Deployment.patience) { lines in
    lines.filter { $0.contains("acquired shard") }.count >= count
  }
}
