// A lock another process holds while the tool starts, and many processes starting together on a
// new cache directory: the store waits for the lock and opens, the shared budget is never
// bypassed meanwhile (the searches say they wait), and no process gives the disk tier up.
import Foundation
import TestSupport
import Testing

@testable import Pipeline
@testable import SQLiteStorage

@Suite(.timeLimit(.minutes(10))) struct StoreLockTests {
  /// The built tool, live, its standard error kept in a file of its own.
  private struct Run {
    let process: RunningProcess
    let stderrPath: String

    init(_ server: LoopbackHTTPServer, _ directory: String, terms: [String], _ extra: [String]) throws {
      stderrPath = NSTemporaryDirectory() + "stream-search-lock-\(UUID().uuidString).stderr"
      process = try RunningProcess(
        URL(fileURLWithPath: "/bin/sh"),
        arguments: ["-c", #"exec "$0" "$@" 2>'\#(stderrPath)'"#, try toolBinary().path]
          + diskArguments(server, directory, extra))
      process.write(String(decoding: sessionsInput(terms), as: UTF8.self))
      process.closeInput()
    }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
  }

  /// Holds `database`'s write lock (as another process would) until every search of `runs` has
  /// said it waits, then lets go; checks that each run then ends well: every term answered,
  /// nothing on standard error, the disk tier on.
  private func expectWaitingThroughTheLock(
    _ database: TestDatabase, runs: [(run: Run, terms: [String])], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    for (run, terms) in runs {
      // A waiting event's term is followed by its category; a search's or results' is not.
      for term in terms { await run.process.waitForLine(containing: #""term":"\#(term)","category""#) }
    }
    try database.rows("COMMIT")
    for (run, terms) in runs {
      #expect(await run.process.waitForExit() == 0, sourceLocation: sourceLocation)
      let events = try run.process.lines.map { try ToolEvent(line: Substring($0)) }
      #expect(run.stderr == "", "nothing is said of a lock the tool waits out", sourceLocation: sourceLocation)
      #expect(events.filter { $0.type == "results" }.count == terms.count, sourceLocation: sourceLocation)
      #expect(events.last?.disk == "on", sourceLocation: sourceLocation)
      // Each search said at once that it waits, before its results.
      for term in Set(events.compactMap(\.term)) {
        let kinds = events.filter { $0.term == term }.map(\.type)
        #expect(kinds.first == "search" && kinds.dropFirst().first == "waiting", "\(term): \(kinds)")
      }
    }
  }

  @Test(arguments: [false, true])
  func aLockHeldAtStartIsWaitedOutAndTheBudgetIsNeverBypassed(brandNew: Bool) async throws {
    let directory = try freshDirectory()
    if !brandNew {
      _ = SQLiteStore.open(directory: directory) { line in Issue.record("unexpected report: \(line)") }
    }
    // A connection of the test's holds the write lock: of the store the tool made in an earlier
    // run, or of a file created a moment ago and not yet written.
    let database = try TestDatabase(cacheFile(directory))
    try database.rows("BEGIN EXCLUSIVE")
    let counted = AnswerGate()
    counted.open()
    let handler: LoopbackHTTPServer.Handler = { request in
      counted.recordHandled()
      return .json(answerBody(for: request.value(of: "term") ?? ""))
    }
    try await withStandIn(handler) { server in
      let rate = ["--rate-limit", "3/4s"]
      let runs = try [["a1", "a2", "a3"], ["b1", "b2", "b3"]].map { terms in
        (run: try Run(server, directory, terms: terms, rate), terms: terms)
      }
      try await expectWaitingThroughTheLock(database, runs: runs)
      #expect(server.requests.count == 6)
      let sorted = counted.handled.sorted()
      for index in sorted.indices.dropLast(3) {
        #expect(sorted[index + 3] - sorted[index] >= 4_000, "four requests within 4 s at the server: \(sorted)")
      }
    }
  }

  @Test func aLockHeldForTheWholeRunIsSaidOnceAtTheEnd() async throws {
    let directory = try freshDirectory()
    _ = SQLiteStore.open(directory: directory) { line in Issue.record("unexpected report: \(line)") }
    let database = try TestDatabase(cacheFile(directory))
    try database.rows("BEGIN EXCLUSIVE")
    defer { _ = try? database.rows("COMMIT") }
    try await withStandIn(echoAnswers) { server in
      // No budget: the search goes on while the store waits; the run ends before the lock goes.
      let result = try await runWithDisk(server, directory, terms: ["held"], ["--rate-limit", "none"])
      let events = try checkedEvents(result)
      #expect(events.filter { $0.type == "results" }.count == 1)
      #expect(events.last?.disk == "off")
      let lines = stderrLines(result)
      #expect(
        lines.count == 1 && lines.first?.contains("held its lock for the whole run") == true,
        "the answers not kept are said once: \(lines)")
    }
  }

  @Test func eightProcessesStartingTogetherOnANewDirectoryAllUseTheStore() async throws {
    try await withStandIn(echoAnswers) { server in
      for round in 0..<3 {
        let directory = try freshDirectory()
        let results = try await withThrowingTaskGroup(of: SubprocessResult.self) { group in
          for process in 0..<8 {
            group.addTask { try await runWithDisk(server, directory, terms: ["r\(round)p\(process)"]) }
          }
          return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results {
          let events = try checkedEvents(result)
          #expect(result.stderr == "", "round \(round): \(result.stderr)")
          #expect(events.last?.disk == "on")
        }
        let stored = try TestDatabase(cacheFile(directory)).value("SELECT count(*) FROM answers")
        #expect(stored == "8", "round \(round): every process stored its answer")
      }
    }
  }
}
