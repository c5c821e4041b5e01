// What the built binary says of catalog matches: a short real word fills no category where it
// names nothing with typos of other words; each item says how it matched, a partial category so.
import Foundation
import TestSupport
import Testing

@Suite struct CatalogTypoGuardBinaryTests {
  @Test func jediFindsItsFilmsAndNoSongsThroughTypos() async throws {
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--format", "jsonl"], input: Data("jedi\n".utf8))
    #expect(result.status == 0)
    let results = try #require(try jsonObjects(result.stdout).first { $0["type"] as? String == "results" })
    var titles: [String: [String]] = [:]
    for category in results["categories"] as? [[String: Any]] ?? [] {
      let items = category["items"] as? [[String: Any]] ?? []
      titles[category["category"] as? String ?? ""] = items.compactMap { $0["title"] as? String }
    }
    #expect(titles["music"] == [])
    #expect(titles["movies"]?.first?.contains("Jedi") == true)
  }
}

@Suite struct CatalogMatchBinaryTests {
  @Test func itemsSayHowTheyMatchedAndAPartialCategoryIsMarked() async throws {
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--format", "jsonl"], input: Data("radiohead creep\n".utf8))
    #expect(result.status == 0)
    let results = try #require(try jsonObjects(result.stdout).first { $0["type"] as? String == "results" })
    let categories = results["categories"] as? [[String: Any]] ?? []
    let music = try #require(categories.first { $0["category"] as? String == "music" })
    let movies = try #require(categories.first { $0["category"] as? String == "movies" })
    #expect(music["matched"] == nil)
    #expect((music["items"] as? [[String: Any]])?.first?["match"] as? String == "prefix")
    #expect(movies["matched"] as? String == "partial")
    let film = try #require((movies["items"] as? [[String: Any]])?.first)
    #expect(film["title"] as? String == "Creep")
    #expect(film["match"] as? String == "partial")
    #expect(film["matched_words"] as? [String] == ["creep"])
  }
}
