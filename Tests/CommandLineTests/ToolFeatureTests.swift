// Features of the tool seen from outside: a user's own catalog file, recording a session and
// replaying it, verbose logs on stderr, and an input that cannot be opened.
import Foundation
import TestSupport
import Testing

@Suite struct ToolFeatureTests {
  func temporaryFile(_ name: String, _ contents: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-search-\(UUID())-\(name)")
    try Data(contents.utf8).write(to: url)
    return url
  }

  @Test func aUsersOwnCatalogFileAnswersTheSearches() async throws {
    let catalog = try temporaryFile(
      "catalog.json",
      """
      [{"trackId": 1, "kind": "song", "trackName": "Zyzzyva Nights", "artistName": "The Qwerty"},
       {"trackId": 2, "kind": "feature-movie", "trackName": "Zyzzyva: The Movie"}]
      """)
    defer { try? FileManager.default.removeItem(at: catalog) }
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--catalog", catalog.path, "--format", "jsonl"], input: Data("zyzzyva\n".utf8))
    let results = try #require(try jsonObjects(result.stdout).first { $0["type"] as? String == "results" })
    let categories = try #require(results["categories"] as? [[String: Any]])
    let titles = categories.flatMap { ($0["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } }
    #expect(titles == ["Zyzzyva Nights", "Zyzzyva: The Movie"])
    #expect(result.status == 0)
  }

  @Test func anUnusableCatalogFileIsOneErrorLineAndStatus66() async throws {
    let catalog = try temporaryFile("catalog.json", "this is not json")
    defer { try? FileManager.default.removeItem(at: catalog) }
    let result = try await Subprocess.run(try toolBinary(), arguments: ["--catalog", catalog.path])
    #expect(result.status == 66)
    #expect(result.stdout == "")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.hasPrefix("Error: cannot use catalog"))
  }

  @Test func aMissingInputFileIsOneErrorLineAndStatus66() async throws {
    let result = try await Subprocess.run(try toolBinary(), arguments: ["--input", "/nonexistent/keys.jsonl"])
    #expect(result.status == 66)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("/nonexistent/keys.jsonl"))
  }

  @Test func recordStampsEachLineAndItsRecordingReplays() async throws {
    let typed = "t\nta\ntay\n{\"term\": \"taylor\", \"session\": \"u1\"}\n"
    let recorded = try await Subprocess.run(try toolBinary(), arguments: ["record"], input: Data(typed.utf8))
    #expect(recorded.status == 0)
    let lines = try jsonObjects(recorded.stdout)
    #expect(lines.map { $0["term"] as? String } == ["t", "ta", "tay", "taylor"])
    #expect(lines.map { $0["session"] as? String } == [nil, nil, nil, "u1"])
    let instants = lines.compactMap { $0["at_ms"] as? Int }
    #expect(instants.count == 4)
    #expect(instants == instants.sorted())
    let replayed = try await Subprocess.run(
      try toolBinary(), arguments: ["--replay", "--format", "jsonl"], input: recorded.standardOutput)
    let searched = try jsonObjects(replayed.stdout).filter { $0["type"] as? String == "search" }
    #expect(searched.map { $0["term"] as? String } == ["tay", "taylor"])
  }

  @Test func verboseLogsTheCatalogsSearchesAndCacheActivityOnStandardError() async throws {
    let recording = """
      {"at_ms": 0, "term": "taylor"}
      {"at_ms": 1000, "term": ""}
      {"at_ms": 2000, "term": "taylor"}
      """
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--replay", "--verbose", "--categories", "music"], input: Data(recording.utf8))
    let log = result.stderr.split(separator: "\n").map(String.init)
    // The offline catalog is searched in the process: nothing goes over a network.
    #expect(log == [#"[catalog] searching "taylor" (music)"#, #"[cache] hit "taylor" (music)"#])
    #expect(try jsonObjects(result.stdout).count == 6)
  }

  @Test func statsWritesTheSummaryAlsoOnStandardError() async throws {
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--stats", "--format", "jsonl"], input: Data("radiohead\n".utf8))
    #expect(result.stderr.contains("summary"))
    #expect(result.stderr.contains("1 searches"))
  }
}
