// The disk-cache tests' tools: a fresh cache directory, the built tool run live against the
// stand-in with it, and the cache file read back with SQLite itself.
import Foundation
import TestSupport
import Testing

@testable import Pipeline
@testable import SQLiteStorage

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

/// A connection to an SQLite file for checking it from the test, through the store's own binding
/// (so the tests need SQLite's runtime library, as the tool does, and nothing more).
final class TestDatabase {
  private let connection: SQLiteConnection

  init(_ path: String) throws {
    do {
      connection = try SQLiteConnection(path: path, busyTimeout: 5_000)
    } catch {
      throw TestDatabaseError(message: "cannot open \(path): \(error)")
    }
  }

  /// Runs `sql`, returning every row's columns as text (NULL as "").
  @discardableResult
  func rows(_ sql: String) throws -> [[String]] {
    var rows: [[String]] = []
    do {
      try connection.query(sql) { row in
        rows.append((0..<row.count).map { row.isNull($0) ? "" : row.text($0) })
      }
    } catch {
      throw TestDatabaseError(message: error.message)
    }
    return rows
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
