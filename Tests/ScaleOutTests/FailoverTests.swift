// What users will try: a worker killed in the middle of its searches, two workers racing for one
// shard, a worker paused past its lease and resumed. In each, every session's last search ends
// with its results exactly once, nothing is lost, and a worker that lost its lease commits
// nothing more. Outcomes are asserted, never durations (those are the benchmark's).
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct FailoverTests {
  /// One keystroke per session, `term` in each.
  private func keystrokes(_ sessions: [String], term: String) -> [String] {
    sessions.map { #"{"term":"\#(term)","session":"\#($0)"}"# }
  }

  private func checkEveryone(_ deployment: Deployment, sessions: [String], term: String) async throws {
    let events = try await deployment.events()
    for session in sessions {
      let own = events.filter { $0.session == session }
      let problem = problems(in: own, lastTerm: term)
      #expect(problem == nil, "\(session): \(problem ?? "")")
      #expect(own.filter { $0.type == "results" }.count == 1, "\(session): \(own.map(\.type))")
    }
    #expect(endsStoredOnce(try deployment.storedEvents()).isEmpty)
  }

  @Test func aWorkerKilledMidSearchHasItsSearchesAnsweredByAnother() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server)
    // Each search takes 3 s: the kill lands while they are all in flight.
    let first = try deployment.worker("a-first", extra: ["--latency", "3s"])
    defer { first.stop() }
    #expect(await waitForAcquisitions(first, count: deployment.shards))
    let second = try deployment.worker("b-second", extra: ["--latency", "3s"])
    defer { second.stop() }
    // The second worker takes its share from the first, which gives it back.
    #expect(await first.waitForError(within: Deployment.patience, containing: "released shard"))
    #expect(await waitForAcquisitions(second, count: 1))
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    let sessions = (0..<40).map { "user-\($0)" }
    _ = try await deployment.publish(keystrokes(sessions, term: "love"))
    // Every search has started (on one worker or the other) before the kill.
    let started = await follower.waitForOutput(within: Deployment.patience) { lines in
      Set(lines.compactMap(Event.init).filter { $0.type == "search" }.compactMap(\.session)).count == sessions.count
    }
    #expect(started)
    first.signal(SIGKILL)
    #expect(await first.waitForExit(within: Deployment.patience)?.bySignal == true)
    #expect(await Deployment.waitForResults(follower, sessions: Set(sessions), term: "love"))
    try await checkEveryone(deployment, sessions: sessions, term: "love")
    // The survivor holds every shard now.
    #expect(await waitForAcquisitions(second, count: deployment.shards))
  }

  @Test func twoWorkersRacingForOneShardShareNothing() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server, shards: 1)
    // Started together, each may take the shard while the other is not yet in the live set;
    // the lease lets only one hold it at a time, and the one whose share it is keeps it.
    let workers = try ["w1", "w2"].map { try deployment.worker($0) }
    defer { for worker in workers { worker.stop() } }
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    let sessions = (0..<30).map { "s\($0)" }
    _ = try await deployment.publish(keystrokes(sessions, term: "love"))
    #expect(await Deployment.waitForResults(follower, sessions: Set(sessions), term: "love"))
    try await checkEveryone(deployment, sessions: sessions, term: "love")
    // The holder dies: the other takes the shard and answers what comes next.
    let lease = try deployment.connection().call(RESPCommand("GET", try deployment.keys.lease(shard: 0))).string
    let holderName = try #require(lease?.split(separator: ":").last.map(String.init))
    let holder = try #require(holderName == "w1" ? workers.first : workers.last)
    let other = try #require(holderName == "w1" ? workers.last : workers.first)
    let acquisitionsBefore = other.errorLines.filter { $0.contains("acquired shard 0") }.count
    holder.signal(SIGKILL)
    let took = await other.waitForErrorLines(within: Deployment.patience) { lines in
      lines.filter { $0.contains("acquired shard 0") }.count > acquisitionsBefore
    }
    #expect(took)
    let later = (0..<10).map { "later\($0)" }
    _ = try await deployment.publish(keystrokes(later, term: "story"))
    #expect(await Deployment.waitForResults(follower, sessions: Set(later), term: "story"))
    try await checkEveryone(deployment, sessions: later, term: "story")
  }

  @Test func aWorkerPausedPastItsLeaseCommitsNothingWhenResumed() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let deployment = Deployment(server: server, shards: 1)
    let paused = try deployment.worker("a-paused", extra: ["--latency", "2s"])
    defer { paused.stop() }
    #expect(await waitForAcquisitions(paused, count: 1))
    let standby = try deployment.worker("b-standby", extra: ["--latency", "2s"])
    defer { standby.stop() }
    let follower = try deployment.followEvents()
    defer { follower.stop() }
    let sessions = (0..<20).map { "s\($0)" }
    _ = try await deployment.publish(keystrokes(sessions, term: "love"))
    let started = await follower.waitForOutput(within: Deployment.patience) { lines in
      lines.compactMap(Event.init).filter { $0.type == "search" }.count == sessions.count
    }
    #expect(started)
    paused.signal(SIGSTOP)
    // Its lease runs out; the standby takes the shard, claims the keystrokes and answers them.
    #expect(await standby.waitForError(within: Deployment.patience, containing: "acquired shard 0"))
    #expect(await Deployment.waitForResults(follower, sessions: Set(sessions), term: "love"))
    paused.signal(SIGCONT)
    // Resumed, it learns it lost the shard; whatever it still had to commit is refused.
    #expect(await paused.waitForError(within: Deployment.patience, containing: "lost shard 0"))
    try await checkEveryone(deployment, sessions: sessions, term: "love")
    // Back in the live set it may take the shard back (its name sorts first, its share is the one
    // shard): the sessions move once more, and still each search ends once.
    let more = (0..<5).map { "more\($0)" }
    _ = try await deployment.publish(keystrokes(more, term: "story"))
    #expect(await Deployment.waitForResults(follower, sessions: Set(more), term: "story"))
    try await checkEveryone(deployment, sessions: more, term: "story")
  }
}
