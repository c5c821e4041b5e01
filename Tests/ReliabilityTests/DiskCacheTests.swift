// The disk tier through the built binary against the loopback stand-in: answers across runs and
// processes, the offline fallback across runs, the LRU bound, migration, and kill -9.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct DiskCacheTests {
  @Test func aSecondProcessAnswersFromDiskWithoutARequest() async throws {
    let directory = try freshDirectory()
    let terms = ["abba", "queen", "adele"]
    try await withStandIn(echoAnswers) { server in
      let first = try checkedEvents(try await runWithDisk(server, directory, terms: terms, ["--verbose"]))
      #expect(server.requests.count == 3)
      #expect(first.last?.counts["disk_hits"] == 0)
      let second = try await runWithDisk(server, directory, terms: terms, ["--verbose"])
      let events = try checkedEvents(second)
      #expect(server.requests.count == 3, "the second run must not ask the server")
      #expect(titlesByTerm(events) == expectedTitles(terms))
      #expect(events.filter { $0.type == "results" }.allSatisfy { $0.categorySources["music"] == "disk" })
      #expect(events.last?.counts["requests"] == 0)
      #expect(events.last?.counts["disk_hits"] == 3)
      #expect(events.last?.disk == "on")
      #expect(stderrLines(second).filter { $0.hasPrefix("[cache] disk hit") }.count == 3)
    }
  }

  @Test func anExpiredAnswerFromAnEarlierRunIsServedStaleWhenTheServerIsDown() async throws {
    let directory = try freshDirectory()
    let server = LoopbackHTTPServer(handler: echoAnswers)
    try server.start()
    _ = try checkedEvents(try await runWithDisk(server, directory, terms: ["abba"]))
    #expect(server.requests.count == 1)
    server.stop()
    // The same source URL, nobody listening: the stored answer (older than 1 ms) is the fallback.
    let result = try await runWithDisk(
      server, directory, terms: ["abba", "never-fetched"], ["--cache-ttl", "1ms", "--verbose"])
    let events = try checkedEvents(result)
    let results = events.filter { $0.type == "results" }
    #expect(results.map(\.term) == ["abba"])
    #expect(results.first?.categorySources["music"] == "stale")
    #expect(results.first?.categoryTitles["music"] == ["abba 0"])
    let errors = events.filter { $0.type == "error" }.map { "\($0.term ?? "") \($0.errorKind ?? "")" }
    #expect(errors == ["never-fetched offline"])
    #expect(result.stderr.contains(#"[cache] serving the expired answer for "abba" (music): offline"#))
  }

  @Test func rateLimitedAndFailedAnswersAreNeverStored() async throws {
    let directory = try freshDirectory()
    let script = ReplyScript(["limited": [.fault(.emptyBody403)], "broken": [.status(500)]])
    try await withStandIn(script.handler) { server in
      let events = try checkedEvents(try await runWithDisk(server, directory, terms: ["limited", "broken", "fine"]))
      #expect(Set(events.filter { $0.type == "error" }.compactMap(\.errorKind)) == ["rateLimited", "server"])
      let stored = try TestDatabase(cacheFile(directory)).rows("SELECT term FROM answers").map { $0[0] }
      #expect(stored == ["fine"])
    }
  }

  @Test func theStoreKeepsTheMostRecentlyUsedAnswersWithinCacheSize() async throws {
    let directory = try freshDirectory()
    try await withStandIn(echoAnswers) { server in
      let size = ["--cache-size", "3"]
      _ = try checkedEvents(try await runWithDisk(server, directory, terms: ["t1", "t2", "t3"], size))
      _ = try checkedEvents(try await runWithDisk(server, directory, terms: ["t4"], size))
      _ = try checkedEvents(try await runWithDisk(server, directory, terms: ["t5"], size))
      let stored = try TestDatabase(cacheFile(directory)).rows("SELECT term FROM answers").map { $0[0] }
      #expect(stored.count == 3)
      #expect(stored.contains("t4") && stored.contains("t5"))
      let before = server.requests.count
      let events = try checkedEvents(try await runWithDisk(server, directory, terms: ["t4", "t5"], size))
      #expect(server.requests.count == before)
      #expect(events.last?.counts["disk_hits"] == 2)
    }
  }

  @Test func theStoreStaysWithinItsByteLimit() async throws {
    let directory = try freshDirectory()
    let terms = (1...12).map { "bytes\($0)" }
    try await withStandIn(echoAnswers) { server in
      _ = try checkedEvents(try await runWithDisk(server, directory, terms: terms, ["--cache-max-bytes", "300"]))
      let database = try TestDatabase(cacheFile(directory))
      let total = Int(try database.value("SELECT coalesce(sum(bytes), 0) FROM answers")) ?? -1
      let count = Int(try database.value("SELECT count(*) FROM answers")) ?? -1
      // About 60 bytes an answer: 12 of them do not fit in 300.
      #expect(total <= 300 && total > 0)
      #expect(count > 0 && count < terms.count)
    }
  }

  @Test func aVersionOneFileIsMigratedAndItsAnswersKept() async throws {
    let directory = try freshDirectory()
    let database = try TestDatabase(cacheFile(directory))
    let items = #"{"music":[{"id":7,"kind":"song","trackName":"From version one"}]}"#
    let now = Int64(Date().timeIntervalSince1970 * 1_000)
    try await withStandIn(echoAnswers) { server in
      try database.rows("PRAGMA application_id = \(0x5353_4348)")
      try database.rows("PRAGMA user_version = 1")
      try database.rows(
        """
        CREATE TABLE answers (source TEXT NOT NULL, term TEXT NOT NULL, scope TEXT NOT NULL, lim INTEGER NOT NULL,
          country TEXT NOT NULL, items BLOB NOT NULL, fetched_at INTEGER NOT NULL,
          PRIMARY KEY (source, term, scope, lim, country)) WITHOUT ROWID
        """)
      try database.rows(
        """
        INSERT INTO answers VALUES ('\(server.url("/search").absoluteString)', 'old', 'music', 25, 'US',
          CAST('\(items)' AS BLOB), \(now))
        """)
      let events = try checkedEvents(try await runWithDisk(server, directory, terms: ["old"]))
      #expect(server.requests.isEmpty)
      #expect(titlesByTerm(events) == ["old": ["From version one"]])
      #expect(try database.value("PRAGMA user_version") == "3")
      #expect(try database.value("SELECT count(*) FROM requests") == "0")
    }
  }

  @Test func fourConcurrentWritersSucceedAndAFifthFindsAllTheirAnswers() async throws {
    let directory = try freshDirectory()
    let batches = (0..<4).map { writer in (0..<5).map { "w\(writer)-\($0)" } }
    try await withStandIn(echoAnswers) { server in
      let results = try await withThrowingTaskGroup(of: SubprocessResult.self) { group in
        for terms in batches { group.addTask { try await runWithDisk(server, directory, terms: terms) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for result in results {
        let events = try checkedEvents(result)
        #expect(result.stderr == "")
        #expect(events.last?.disk == "on")
      }
      #expect(server.requests.count == 20)
      let all = batches.flatMap { $0 }
      let reader = try checkedEvents(try await runWithDisk(server, directory, terms: all))
      #expect(server.requests.count == 20, "the fifth run must find every answer on disk")
      #expect(titlesByTerm(reader) == expectedTitles(all))
      #expect(reader.last?.counts["disk_hits"] == 20)
    }
  }

  @Test func killDashNineDuringWritesLeavesAnIntactFileAndTheNextRunWorks() async throws {
    let directory = try freshDirectory()
    try await withStandIn(echoAnswers) { server in
      let process = try RunningProcess(try toolBinary(), arguments: diskArguments(server, directory))
      let terms = (0..<400).map { "kill\($0)" }
      // Written in the background while answers (and so store writes) are coming back.
      let feeding = Task { await process.write(sessionsInput(terms)) }
      await process.waitForLine(containing: #""term":"kill40""#)
      process.send(SIGKILL)
      _ = await process.waitForExit()
      feeding.cancel()
      let database = try TestDatabase(cacheFile(directory))
      #expect(try database.value("PRAGMA integrity_check") == "ok")
      let stored = Int(try database.value("SELECT count(*) FROM answers")) ?? -1
      #expect(stored >= 0 && stored <= terms.count)
      let next = try await runWithDisk(server, directory, terms: ["after-kill", "kill0"])
      let events = try checkedEvents(next)
      #expect(next.stderr == "")
      #expect(titlesByTerm(events) == expectedTitles(["after-kill", "kill0"]))
      #expect(events.last?.disk == "on")
    }
  }

  @Test func aCleanExitLeavesEveryAnswerInCacheSqliteAlone() async throws {
    let directory = try freshDirectory()
    let terms = (1...5).map { "copied\($0)" }
    try await withStandIn(echoAnswers) { server in
      _ = try checkedEvents(try await runWithDisk(server, directory, terms: terms))
      #expect(server.requests.count == 5)
      let log = (try? FileManager.default.attributesOfItem(atPath: cacheFile(directory) + "-wal")[.size] as? Int) ?? 0
      #expect(log == 0, "the write-ahead log is folded into the file at exit: \(log) bytes left in it")
      // The file alone, as a user copies it to another machine.
      let copy = try freshDirectory("copy")
      try FileManager.default.copyItem(atPath: cacheFile(directory), toPath: cacheFile(copy))
      let events = try checkedEvents(try await runWithDisk(server, copy, terms: terms))
      #expect(server.requests.count == 5, "every answer is in the copied file")
      #expect(events.last?.counts["disk_hits"] == 5)
      #expect(titlesByTerm(events) == expectedTitles(terms))
    }
  }
}
