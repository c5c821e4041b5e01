// Names written as one word or as two, typed into the built binary: each spelling finds the
// name, and both put the same items first.
import Foundation
import TestSupport
import Testing

@Suite struct CatalogRespellingBinaryTests {
  /// The first item's title and artist of each category, per term typed, in the order typed: a
  /// recording replayed, a term every second, so that each is searched.
  private func firstItems(typing terms: [String]) async throws -> [[String: (title: String?, artist: String?)]] {
    let lines = try terms.enumerated().map { number, term in
      let line = try JSONSerialization.data(withJSONObject: ["at_ms": number * 1000, "term": term])
      return String(decoding: line, as: UTF8.self)
    }
    let input = Data(lines.map { $0 + "\n" }.joined().utf8)
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--replay", "--format", "jsonl"], input: input)
    #expect(result.status == 0)
    return try jsonObjects(result.stdout).filter { $0["type"] as? String == "results" }.map { results in
      var first: [String: (title: String?, artist: String?)] = [:]
      for category in results["categories"] as? [[String: Any]] ?? [] {
        let item = (category["items"] as? [[String: Any]])?.first
        first[category["category"] as? String ?? ""] = (item?["title"] as? String, item?["artist"] as? String)
      }
      return first
    }
  }

  @Test func joinedAndSplitNamesFindTheSameItemsFirst() async throws {
    let terms = ["sound garden", "soundgarden", "cold play", "taylorswift", "pinkfloyd", "shakeitoff", "starwars"]
    let answers = try await firstItems(typing: terms)
    try #require(answers.count == terms.count)
    #expect(answers[0]["music"]?.artist == "Soundgarden")
    #expect(answers[1]["music"]?.title == answers[0]["music"]?.title)
    #expect(answers[2]["music"]?.artist == "Coldplay")
    #expect(answers[3]["music"]?.artist == "Taylor Swift")
    #expect(answers[4]["music"]?.artist == "Pink Floyd")
    #expect(answers[5]["music"]?.title == "Shake It Off")
    #expect(answers[6]["movies"]?.title == "Star Wars")
  }
}
