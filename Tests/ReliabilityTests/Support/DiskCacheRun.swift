// The disk-cache tests' tools: a fresh cache directory, the built tool run live against the
// stand-in with it, and the cache file read back with SQLite itself.
import CSQLite
import Foundation
import TestSupport
import Testing

/// A new, empty directory under the temporary directory.
func freshDirectory(_ name: String = "cache") throws -> String {
  let path = NSTemporaryDirectory() + "stream-search-disk-\(getpid())-\(UUID().uuidString)/\(name)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Input that settles every one of `terms` at once, each in its own session.
func sessionsInput(_ terms: [String]) -> Data {
  Data(terms.enumerated().map { #"{"term":"\#($1)","session":"s\#($0)"}"# + "\n" }.joined().utf8)
}

/// The tool's arguments for a live run against `server` with the disk cache in `directory`.
func diskArguments(_ server: LoopbackHTTPServer, _ directory: String, _ extra: [String] = []) -> [String] {
  [
    "--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music",
    "--retries", "0", "--debounce", "0ms", "--cache-dir", directory,
  ] + extra
}

/// Runs the tool live over `terms` against `server` with the disk cache in `directory`.
func runWithDisk(
  _ server: LoopbackHTTPServer, _ directory: String, terms: [String], _ extra: [String] = []
) async throws -> SubprocessResult {
  try await Subprocess.run(
    try toolBinary(), arguments: diskArguments(server, directory, extra), input: sessionsInput(terms))
}

/// A run's events, after checking it exited 0.
func checkedEvents(
  _ result: SubprocessResult, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [ToolEvent] {
  #expect(
    result.status == 0 && !result.terminatedBySignal, "status \(result.status): \(result.stderr)",
    sourceLocation: sourceLocation)
  return try toolEvents(result.stdout)
}

/// Each term's music titles in `events`' results.
func titlesByTerm(_ events: [ToolEvent]) -> [String: [String]] {
  var titles: [String: [String]] = [:]
  for event in events where event.type == "results" { titles[event.term ?? ""] = event.categoryTitles["music"] ?? [] }
  return titles
}

/// What the stand-in answers `term` with: `answerBody(for:)`'s single title.
func expectedTitles(_ terms: [String]) -> [String: [String]] {
  Dictionary(uniqueKeysWithValues: terms.map { ($0, ["\($0) 0"]) })
}

/// A connection to an SQLite file for checking it from the test.
final class TestDatabase {
  private var handle: OpaquePointer?

  init(_ path: String) throws {
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
      throw TestDatabaseError(message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)")
    }
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs `sql`, returning every row's columns as text.
  @discardableResult
  func rows(_ sql: String) throws -> [[String]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
      throw TestDatabaseError(message: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    var rows: [[String]] = []
    while true {
      let step = sqlite3_step(statement)
      if step == SQLITE_DONE { return rows }
      guard step == SQLITE_ROW else { throw TestDatabaseError(message: String(cString: sqlite3_errmsg(handle))) }
      rows.append(
        (0..<sqlite3_column_count(statement)).map { column in
          sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
        })
    }
  }

  /// The first column of the first row of `sql`.
  func value(_ sql: String) throws -> String { try rows(sql).first?.first ?? "" }
}

struct TestDatabaseError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// The cache file in `directory`.
func cacheFile(_ directory: String) -> String { directory + "/cache.sqlite" }

/// Standard error's lines.
func stderrLines(_ result: SubprocessResult) -> [String] {
  result.stderr.split(separator: "\n").map(String.init)
}

/// The stand-in's answer to every term: `answerBody(for:)`.
let echoAnswers: LoopbackHTTPServer.Handler = { request in .json(answerBody(for: request.value(of: "term") ?? "")) }
