// The shared store on a real redis-server: an answer saved by one worker's store is found by
// another's, the least recently used go beyond the capacity, one budget holds across stores that
// reserve at once, and a server that answers what no command returns turns the store off with
// one line instead of crashing or waiting.
import Foundation
import Pipeline
import RESP
import Synchronization
import TestSupport
import Testing

@testable import ScaleOut

@Suite(.needsRedis) struct RedisStoreTests {
  private let key = StoreKey(source: "https://itunes.example", term: "taylor", scope: "music", limit: 5, country: "US")

  private func store(
    _ server: RedisServer, capacity: Int = 100, report: @escaping @Sendable (String) -> Void = { _ in }
  )
    throws -> RedisStore
  {
    RedisStore(endpoint: server.endpoint, keys: try ScaleOutKeys(prefix: "t"), capacity: capacity, report: report)
  }

  @Test func anAnswerSavedByOneStoreIsFoundByAnother() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let first = try store(server)
    let second = try store(server)
    #expect(await second.answer(for: key) == nil)
    let items: [Category: [SearchItem]] = [.music: [SearchItem(id: 7, kind: "song", trackName: "Love Story")]]
    first.save(items, fetchedAt: 1_700_000_000_123, for: key)
    await first.flush()
    let found = try #require(await second.answer(for: key))
    #expect(found.fetchedAt == 1_700_000_000_123)
    #expect(found.items?[.music]?.map(\.trackName) == ["Love Story"])
    // Another key (the NUL and the separator inside a field make no collision) is a miss.
    var other = key
    other.term = "taylor|5:music"
    #expect(await second.answer(for: other) == nil)
    #expect(first.status == .on && second.status == .on)
  }

  @Test func theLeastRecentlyUsedAnswersGoBeyondTheCapacity() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let store = try store(server, capacity: 2)
    let items: [Category: [SearchItem]] = [.music: [SearchItem(id: 1, trackName: "a")]]
    var keys: [StoreKey] = []
    for (index, term) in ["a", "b", "c"].enumerated() {
      var key = key
      key.term = term
      keys.append(key)
      store.save(items, fetchedAt: Int64(1_000 + index), for: key)
      if index == 1 { store.markUsed(keys[0], at: 5_000) }
    }
    await store.flush()
    #expect(await store.answer(for: keys[0]) != nil, "used last: kept")
    #expect(await store.answer(for: keys[1]) == nil, "least recently used: evicted")
    #expect(await store.answer(for: keys[2]) != nil)
  }

  @Test func oneBudgetHoldsAcrossStoresReservingAtOnce() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let stores = try (0..<3).map { _ in try store(server) }
    let granted = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<30 {
        let store = stores[index % stores.count]
        group.addTask {
          while true {
            do throws(SharedStoreFailure) {
              return try await store.reserve(inBudget: "itunes", since: 0) { entries in
                entries.count < 5
                  ? (true, record: BudgetEntry(id: "r\(index)", grantedAt: 1_000 + Int64(index))) : (false, record: nil)
              }
            } catch {
              if error != .busy { return false }
            }
          }
        }
      }
      var count = 0
      for await grant in group where grant { count += 1 }
      return count
    }
    #expect(granted == 5, "five permits over every store, whatever the interleaving")
    stores[0].finishRequest("r0", inBudget: "itunes", endedAt: 2_000)
    await stores[0].flush()
    let entries = try await stores[1].reserve(inBudget: "itunes", since: 0) { entries in (entries, record: nil) }
    #expect(entries.count == 5)
    #expect(entries.first { $0.id == "r0" }?.endedAt == 2_000 || !entries.contains { $0.id == "r0" })
    // Entries granted before `since` are forgotten.
    let later = try await stores[2].reserve(inBudget: "itunes", since: 10_000) { entries in (entries, record: nil) }
    #expect(later.isEmpty)
  }

  @Test func theWallClockIsTheServers() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let store = try store(server)
    _ = try await store.reserve(inBudget: "b", since: 0) { _ in (0, record: nil) }
    let connection = try RESPConnection(endpoint: server.endpoint)
    let time = try #require(ServerTime.milliseconds(try connection.call(RESPCommand("TIME"))))
    #expect(abs(store.wallClock.millisecondsSinceEpoch - time) < 1_000)
  }

  @Test(arguments: [
    ("*2\r\n:1\r\n:2\r\n", "an array"),
    ("$2000000000\r\n", "a bulk string of 2000000000 bytes"),
    ("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n", "WRONGTYPE"),
  ])
  func aServerAnsweringNonsenseTurnsTheStoreOffWithOneLine(reply: String, reason: String) async throws {
    let server = try ScriptedRESPServer(reply: Array(reply.utf8), then: .keepOpen)
    defer { server.stop() }
    let lines = Mutex<[String]>([])
    let store = RedisStore(endpoint: server.endpoint, keys: try ScaleOutKeys(prefix: "t")) { line in
      lines.withLock { $0.append(line) }
    }
    #expect(await store.answer(for: key) == nil)
    #expect(store.status != .on)
    // Off: nothing more is asked, and budgets say so at once.
    #expect(await store.answer(for: key) == nil)
    await #expect(throws: SharedStoreFailure.off) {
      try await store.reserve(inBudget: "b", since: 0) { _ in (0, record: nil) }
    }
    let said = lines.withLock { $0 }
    #expect(said.count == 1 && said[0].contains(reason), "\(said)")
  }

  @Test func aServerAwayIsAMissAndABusyBudgetNotAFailure() async throws {
    let port = try LoopbackHTTPServer.closedPort()
    let store = RedisStore(endpoint: RedisEndpoint(host: "127.0.0.1", port: port), keys: try ScaleOutKeys(prefix: "t"))
    #expect(await store.answer(for: key) == nil)
    await #expect(throws: SharedStoreFailure.busy) {
      try await store.reserve(inBudget: "b", since: 0) { _ in (0, record: nil) }
    }
    #expect(store.status == .on)
  }
}
