// Workers share answers through Redis, through the built binary: two workers on one loopback
// stand-in for the iTunes Search API, the same term typed into sessions each worker owns, and the
// stand-in asked once.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct SharedAnswersBinaryTests {
  @Test func anAnswerFetchedByOneWorkerAnswersTheOtherWithoutARequest() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let itunes = try Self.startITunesStandIn()
    defer { itunes.stop() }
    let deployment = Deployment(server: server)
    let source = itunes.baseURL.absoluteString
    let first = try deployment.worker("w1", lease: "60s", source: source, extra: ["--categories", "music"])
    defer { first.stop() }
    #expect(await waitForAcquisitions(first, count: deployment.shards))
    let second = try deployment.worker("w2", lease: "60s", source: source, extra: ["--categories", "music"])
    defer { second.stop() }
    // The second takes its half once the first gives it back; its stderr says when.
    #expect(await waitForAcquisitions(second, count: deployment.shards / 2))
    let holders = try deployment.holders()
    #expect(holders.count == deployment.shards && Set(holders.values) == ["w1", "w2"], "\(holders)")
    // One session on each worker's shards.
    func session(on worker: String) -> String? {
      (0..<10_000).lazy.map { "user-\($0)" }.first { name in
        holders[ShardHash.shard(of: name, shardCount: deployment.shards)] == worker
      }
    }
    let one = try #require(session(on: "w1"))
    let other = try #require(session(on: "w2"))
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    _ = try await deployment.publish([#"{"term":"shared","session":"\#(one)"}"#])
    #expect(await Deployment.waitForResults(follower, sessions: [one], term: "shared"))
    let asked = itunes.requests.count
    #expect(asked == 1, "\(itunes.requests.map(\.target))")
    _ = try await deployment.publish([#"{"term":"shared","session":"\#(other)"}"#])
    #expect(await Deployment.waitForResults(follower, sessions: [other], term: "shared"))
    #expect(itunes.requests.count == asked, "the second worker answered from the first's fetch")
    let events = follower.outputLines.compactMap { Event(line: $0) }
    #expect(events.filter { $0.type == "results" }.count == 2)
    let connection = try deployment.connection()
    let stored = try connection.call(RESPCommand("ZCARD", try deployment.keys.answers))
    #expect(stored == .integer(1), "one answer stored for both")
  }

  @Test func aStoreKeyOfAnotherTypeTurnsTheStoreOffWithOneLineAndTheWorkerGoesOn() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let itunes = try Self.startITunesStandIn()
    defer { itunes.stop() }
    let deployment = Deployment(server: server, shards: 1)
    // Another program's list where the answers' index belongs.
    let connection = try deployment.connection()
    _ = try connection.call(RESPCommand("RPUSH", try deployment.keys.answers, "not ours"))
    let worker = try deployment.worker(
      "w1", lease: "60s", source: itunes.baseURL.absoluteString, extra: ["--categories", "music"])
    defer { worker.stop() }
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    _ = try await deployment.publish([#"{"term":"first","session":"a"}"#, #"{"term":"second","session":"b"}"#])
    #expect(await Deployment.waitForResults(follower, sessions: ["a"], term: "first"))
    #expect(await Deployment.waitForResults(follower, sessions: ["b"], term: "second"))
    let said = await worker.waitForError(within: Deployment.patience, containing: "the shared store on Redis")
    #expect(said)
    let lines = worker.errorLines.filter { $0.contains("the shared store on Redis") }
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.contains("WRONGTYPE") == true, "\(lines)")
    #expect(
      try connection.call(RESPCommand("LRANGE", try deployment.keys.answers, 0, -1))
        == .array([.bulkString(Array("not ours".utf8))]))
  }

  /// A loopback stand-in for the iTunes Search API that answers every term with one song named
  /// after it, so each answer says which term it came from.
  private static func startITunesStandIn() throws -> LoopbackHTTPServer {
    let server = LoopbackHTTPServer { request in
      let term = request.value(of: "term") ?? ""
      return .json(
        #"{"resultCount":1,"results":[{"wrapperType":"track","kind":"song","trackId":1,"trackName":"\#(term) song"}]}"#)
    }
    try server.start()
    return server
  }
}
