// One request budget across runs and processes: the rule at its exact boundaries in process (two
// stores on one file stand for two processes), then through the binary, counted where the server
// counts. Arrival instants on a loaded machine cannot be asserted tightly against a clock, so the
// tests record instants (the tool's, through a trigger on its table; the server's, in its handler,
// on the same calendar clock) and check the rule on them exactly.
import Foundation
import TestSupport
import Testing

@testable import Pipeline
@testable import SQLiteStorage

@Suite(.timeLimit(.minutes(10))) struct SharedRateBudgetTests {
  private func budget(_ directory: String, permits: Int = 3, window: Duration = .seconds(1)) -> SharedRateBudget {
    let store = SQLiteStore.open(directory: directory) { line in Issue.record("unexpected report: \(line)") }
    return SharedRateBudget(store: store, name: "itunes", limit: RateLimit(permits: permits, per: window))
  }

  /// What `budget` finds at `now`; the entry's identifier when it records one.
  private func reserve(_ budget: SharedRateBudget, at now: Int64) async -> String {
    switch await budget.reserve(at: now) {
    case .success(.recorded(let entry)): "recorded:\(entry.id)"
    case .success(.fullFor(let milliseconds)): "fullFor \(milliseconds)"
    case .failure(let failure): "\(failure)"
    }
  }

  /// Ends request `id` of `budget` at `instant`, committed.
  private func finish(_ budget: SharedRateBudget, _ entry: String, at instant: Int64) async {
    budget.store.finishRequest(String(entry.dropFirst("recorded:".count)), inBudget: budget.name, endedAt: instant)
    await budget.store.flush()
  }

  @Test func aRequestHoldsItsPermitUntilExactlyOneWindowAfterItEnds() async throws {
    let budget = budget(try freshDirectory())
    var granted: [String] = []
    for _ in 0..<3 { granted.append(await reserve(budget, at: 10_000)) }
    #expect(granted.allSatisfy { $0.hasPrefix("recorded:") })
    #expect(await reserve(budget, at: 10_000) == "fullFor 1000", "in flight: at least a window from now")
    #expect(await reserve(budget, at: 10_400) == "fullFor 1000")
    for entry in granted { await finish(budget, entry, at: 10_500) }
    #expect(await reserve(budget, at: 11_499) == "fullFor 1")
    #expect((await reserve(budget, at: 11_500)).hasPrefix("recorded:"))
  }

  @Test func twoStoresOnOneFileShareTheBudget() async throws {
    let directory = try freshDirectory()
    let first = budget(directory)
    let second = budget(directory)
    let a = await reserve(first, at: 5_000)
    let b = await reserve(second, at: 5_100)
    let c = await reserve(first, at: 5_200)
    for (entry, end) in [(a, 5_050), (b, 5_150), (c, 5_250)] { await finish(first, entry, at: Int64(end)) }
    // Every permit is held until a window after its request ended: the first frees at 6,050.
    #expect(await reserve(second, at: 5_300) == "fullFor 750")
    #expect((await reserve(second, at: 6_050)).hasPrefix("recorded:"))
    #expect(await reserve(first, at: 6_050) == "fullFor 100")
  }

  /// Creates the cache file in `directory` as the tool does, plus a log of every request its
  /// budget records: a trigger on `requests`, whose own rows are deleted as they leave the window.
  private func loggingRecordedRequests(_ directory: String) throws -> TestDatabase {
    _ = budget(directory)
    let database = try TestDatabase(cacheFile(directory))
    try database.rows("CREATE TABLE recorded (budget TEXT NOT NULL, sent_at INTEGER NOT NULL)")
    try database.rows(
      """
      CREATE TRIGGER log_recorded AFTER INSERT ON requests
      BEGIN INSERT INTO recorded VALUES (NEW.budget, NEW.sent_at); END
      """)
    return database
  }

  /// Checks that `count` requests were recorded in `database` and reached `server`, and that no
  /// `window` (in milliseconds) holds more than `permits` of them.
  private func expectAtMost(
    _ permits: Int, perMilliseconds window: Int64, recordedIn database: TestDatabase,
    server: LoopbackHTTPServer, count: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let sent = try database.rows("SELECT sent_at FROM recorded ORDER BY sent_at").compactMap { Int64($0[0]) }
    #expect(sent.count == count, sourceLocation: sourceLocation)
    #expect(server.requests.count == count, sourceLocation: sourceLocation)
    expectSpaced(sent, permits: permits, window: window, what: "recorded", sourceLocation: sourceLocation)
  }

  /// Checks that of `instants`, sorted, no two `permits` places apart are less than `window` apart.
  private func expectSpaced(
    _ instants: [Int64], permits: Int, window: Int64, what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let sorted = instants.sorted()
    for index in sorted.indices.dropLast(permits) {
      #expect(
        sorted[index + permits] - sorted[index] >= window,
        "requests \(index) and \(index + permits) \(what) at \(sorted[index]) and \(sorted[index + permits]) ms",
        sourceLocation: sourceLocation)
    }
  }

  @Test func aSecondRunHonoursTheRequestsOfTheFirst() async throws {
    let directory = try freshDirectory()
    let database = try loggingRecordedRequests(directory)
    let rate = ["--rate-limit", "3/2s"]
    try await withStandIn(echoAnswers) { server in
      _ = try checkedEvents(try await runWithDisk(server, directory, terms: ["r1", "r2", "r3"], rate))
      let second = try checkedEvents(try await runWithDisk(server, directory, terms: ["r4", "r5", "r6"], rate))
      #expect(second.filter { $0.type == "results" }.count == 3)
      try expectAtMost(3, perMilliseconds: 2_000, recordedIn: database, server: server, count: 6)
    }
  }

  @Test func twoConcurrentProcessesShareOneBudget() async throws {
    let directory = try freshDirectory()
    let database = try loggingRecordedRequests(directory)
    let rate = ["--rate-limit", "3/2s"]
    try await withStandIn(echoAnswers) { server in
      async let first = runWithDisk(server, directory, terms: ["c1", "c2", "c3"], rate)
      async let second = runWithDisk(server, directory, terms: ["c4", "c5", "c6"], rate)
      for result in try await [first, second] {
        #expect(try checkedEvents(result).filter { $0.type == "results" }.count == 3)
      }
      try expectAtMost(3, perMilliseconds: 2_000, recordedIn: database, server: server, count: 6)
    }
  }

  @Test func rateLimitNoneRecordsNothingAndWaitsForNothing() async throws {
    let directory = try freshDirectory()
    try await withStandIn(echoAnswers) { server in
      let terms = (1...6).map { "free\($0)" }
      _ = try checkedEvents(try await runWithDisk(server, directory, terms: terms, ["--rate-limit", "none"]))
      #expect(server.requests.count == 6)
      #expect(try TestDatabase(cacheFile(directory)).value("SELECT count(*) FROM requests") == "0")
    }
  }

  @Test func theBudgetHoldsWhereTheServerCountsNotWhereTheClientAsked() async throws {
    // Two permits per 2 s. The server counts the first two requests late (when the third arrives,
    // or after 3 s), as a busy service counts late what reached it early: a budget that dates a
    // request by its permit lets the third go 2 s after the first two were granted, and the
    // server counts all three within a moment. Counted from the end of each request, the third
    // cannot go before a window after the first two were answered.
    let gate = AnswerGate(bound: .seconds(3))
    let handler: LoopbackHTTPServer.Handler = { request in
      let term = request.value(of: "term") ?? ""
      if term == "third" { gate.open() } else { gate.pass() }
      gate.recordHandled()
      return .json(answerBody(for: term))
    }
    try await withStandIn(handler) { server in
      let result = try await runWithDisk(
        server, try freshDirectory(), terms: ["held1", "held2", "third"], ["--rate-limit", "2/2s"])
      let events = try checkedEvents(result)
      #expect(events.filter { $0.type == "results" }.count == 3)
      #expect(server.requests.count == 3)
      expectSpaced(gate.handled, permits: 2, window: 2_000, what: "counted by the server")
    }
  }

  @Test func aWaitCausedByAnotherProcessIsAnnouncedAtOnce() async throws {
    let directory = try freshDirectory()
    // The first process's request stays in flight until the second process says it waits (or its
    // own request arrives, as it would if the budget let it through): however loaded the machine,
    // and however long the second takes to start, the second process finds the budget's one
    // permit held. Neither the gate's bound nor the first's --timeout can end the hold first: the
    // test releases it (the bound only keeps a broken test from holding the server for ever).
    let gate = AnswerGate(bound: .seconds(600))
    defer { gate.open() }
    let handler: LoopbackHTTPServer.Handler = { request in
      let term = request.value(of: "term") ?? ""
      if term == "first" { gate.pass() } else { gate.open() }
      gate.recordHandled()
      return .json(answerBody(for: term))
    }
    try await withStandIn(handler) { server in
      let rate = ["--rate-limit", "1/3s"]
      let first = try RunningProcess(
        try toolBinary(), arguments: diskArguments(server, directory, rate + ["--timeout", "1h"]))
      first.write("first\n")
      first.closeInput()
      _ = await server.waitForRequests(count: 1)
      // Another process, its own limiter empty: only the shared budget makes it wait.
      let second = try RunningProcess(try toolBinary(), arguments: diskArguments(server, directory, rate))
      second.write("second\n")
      second.closeInput()
      await second.waitForLine(containing: #""type":"waiting""#)
      gate.open()
      #expect(await first.waitForExit() == 0)
      #expect(await second.waitForExit() == 0)
      let events = try second.lines.map { try ToolEvent(line: Substring($0)) }
      #expect(events.map(\.type) == ["search", "waiting", "results", "summary"])
      let waiting = try #require(events.first { $0.type == "waiting" })
      #expect(waiting.category == "music")
      let wait = try #require(waiting.counts["wait_ms"])
      #expect(wait > 0 && wait <= 3_000, "at least the window from now, the first request being in flight: \(wait)")
      #expect(server.requests.count == 2)
      expectSpaced(gate.handled, permits: 1, window: 3_000, what: "counted by the server")
    }
  }
}
