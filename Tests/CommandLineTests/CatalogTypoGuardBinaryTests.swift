// A short real word typed into the built binary fills no category where it names nothing with
// typos of other words.
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
