// One request budget across runs and processes: the rule at its exact boundaries in process (two
// stores on one file stand for two processes), then through the binary, counted at the server.
import Foundation
import TestSupport
import Testing

@testable import Pipeline

@Suite(.timeLimit(.minutes(2))) struct SharedRateBudgetTests {
  private func budget(_ directory: String, permits: Int = 3, window: Duration = .seconds(1)) -> SharedRateBudget {
    let store = AnswerStore.open(directory: directory) { line in Issue.record("unexpected report: \(line)") }
    return SharedRateBudget(store: store, name: "itunes", limit: RateLimit(permits: permits, per: window))
  }

  @Test func aRequestCountsUntilExactlyOneWindowLater() throws {
    let budget = budget(try freshDirectory())
    #expect((0..<3).map { _ in budget.reserve(at: 10_000) } == [.recorded, .recorded, .recorded])
    #expect(budget.reserve(at: 10_000) == .fullFor(1_000))
    #expect(budget.reserve(at: 10_999) == .fullFor(1))
    #expect(budget.reserve(at: 11_000) == .recorded)
  }

  @Test func twoStoresOnOneFileShareTheBudget() throws {
    let directory = try freshDirectory()
    let first = budget(directory)
    let second = budget(directory)
    #expect(first.reserve(at: 5_000) == .recorded)
    #expect(second.reserve(at: 5_100) == .recorded)
    #expect(first.reserve(at: 5_200) == .recorded)
    // The window (4,200, 5,200] holds three: the first to leave is the one sent at 5,000.
    #expect(second.reserve(at: 5_200) == .fullFor(800))
    #expect(second.reserve(at: 6_000) == .recorded)
    #expect(first.reserve(at: 6_000) == .fullFor(100))
  }

  /// Creates the cache file in `directory` as the tool does, plus a log of every request its
  /// budget records: a trigger on `requests`, whose own rows are deleted as they leave the window.
  /// The log holds the instants the tools decided on, so the rule is checked exactly; the
  /// server's arrival instants are not, since a loaded machine can delay an early request's trip
  /// by more than any slack (CI once failed on a 300 ms one).
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
    for index in sent.indices.dropLast(permits) {
      #expect(
        sent[index + permits] - sent[index] >= window,
        "requests \(index) and \(index + permits) recorded at \(sent[index]) and \(sent[index + permits]) ms",
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
}
