// Every stored field keeps every byte: a NUL, a quote, a control character or an emoji in a key or
// an item is stored, compared and read back whole, so no term answers for another that shares its
// bytes up to a NUL. Through the binary (three processes on one cache directory), then in process
// for the key fields the command line cannot reach (source, scope, country).
import Foundation
import TestSupport
import Testing

@testable import Pipeline
@testable import SQLiteStorage

@Suite(.timeLimit(.minutes(10))) struct StoredBytesTests {
  /// Terms a C string, an SQL literal or a LIKE pattern would mangle.
  static let stored = [
    "ab\u{0}cd", "x\u{0}\u{0}y", "quote'\"%_\\", "\u{1}\u{7f}ctl", "🎸\u{0}👍🏽", "beyonce\u{301}",
  ]
  /// Terms equal to a stored one up to a NUL, or a prefix of one: each needs a request of its own.
  static let neighbours = ["ab", "ab\u{0}zz", "x", "x\u{0}", "🎸", "quote'"]

  /// Input settling each of `terms` at once in a session of its own, JSON-escaped.
  private func escapedInput(_ terms: [String]) -> Data {
    Data(terms.enumerated().map { #"{"term":\#(jsonString($1)),"session":"s\#($0)"}"# + "\n" }.joined().utf8)
  }

  /// The server's answer for `term`: one item with the term, a NUL and an emoji in every text field.
  private static func awkwardItem(_ term: String) -> Data {
    let text = jsonString(term + " \u{0} 🎸")
    let fields = [
      "trackName", "artistName", "collectionName", "trackViewUrl", "previewUrl", "artworkUrl100", "releaseDate",
      "primaryGenreName", "currency", "country",
    ]
    let body = fields.map { "\"\($0)\":\(text)" }.joined(separator: ",")
    return Data(#"{"resultCount":1,"results":[{"trackId":7,"kind":"song",\#(body),"trackPrice":1.29}]}"#.utf8)
  }

  /// Per term (by its UTF-8 bytes), the music items of its `results` as canonical JSON, the
  /// category's `source`, and the first item's title.
  private func itemsByTerm(_ stdout: String) throws -> [[UInt8]: (items: Data, source: String, title: String?)] {
    var found: [[UInt8]: (items: Data, source: String, title: String?)] = [:]
    for line in stdout.split(separator: "\n") {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      guard object["type"] as? String == "results", let term = object["term"] as? String,
        let category = (object["categories"] as? [[String: Any]])?.first,
        let items = category["items"] as? [Any], let source = category["source"] as? String
      else { continue }
      let title = (items.first as? [String: Any])?["title"] as? String
      found[Array(term.utf8)] = (try JSONSerialization.data(withJSONObject: items, options: .sortedKeys), source, title)
    }
    return found
  }

  private func run(_ server: LoopbackHTTPServer, _ directory: String, _ terms: [String]) async throws -> String {
    let result = try await Subprocess.run(
      try toolBinary(), arguments: diskArguments(server, directory), input: escapedInput(terms))
    #expect(result.status == 0 && result.stderr.isEmpty, "status \(result.status): \(result.stderr)")
    return result.stdout
  }

  @Test func aNulOrAnyOtherByteInATermOrAnItemIsStoredAndComparedWhole() async throws {
    let directory = try freshDirectory()
    let handler: LoopbackHTTPServer.Handler = { request in .json(Self.awkwardItem(request.value(of: "term") ?? "")) }
    try await withStandIn(handler) { server in
      let first = try itemsByTerm(try await run(server, directory, Self.stored))
      #expect(server.requests.count == Self.stored.count)
      let onDisk = try TestDatabase(cacheFile(directory)).rows("SELECT hex(term) FROM answers ORDER BY 1").map { $0[0] }
      let expected = Self.stored.map { term in
        term.precomposedStringWithCanonicalMapping.utf8.map { String(format: "%02X", $0) }.joined()
      }
      #expect(onDisk == expected.sorted(), "each term's key is stored with every byte")

      // No neighbour is answered with a stored term's answer: each is asked of the server.
      let second = try itemsByTerm(try await run(server, directory, Self.neighbours))
      #expect(server.requests.count == Self.stored.count + Self.neighbours.count)
      for term in Self.neighbours {
        let answer = try #require(second[Array(term.utf8)], "no results for \(Array(term.utf8))")
        #expect(answer.source == "network", "\(Array(term.utf8)) was answered from \(answer.source)")
        #expect(answer.title.map { Array($0.utf8) } == Array((term + " \u{0} 🎸").utf8))
      }

      // The stored terms again, and the composed spelling of the decomposed one: all from disk,
      // every byte of every field as the server first gave it.
      let third = try itemsByTerm(try await run(server, directory, Self.stored + ["beyonc\u{e9}"]))
      #expect(server.requests.count == Self.stored.count + Self.neighbours.count, "the third run asks nothing")
      for term in Self.stored {
        let answer = try #require(third[Array(term.utf8)], "no results for \(Array(term.utf8))")
        #expect(answer.source == "disk")
        #expect(answer.items == first[Array(term.utf8)]?.items, "\(Array(term.utf8))")
      }
      // Searched in the same run as its decomposed spelling: from disk, or from memory when that
      // spelling's disk answer got there first; never from the network (counted above).
      let composed = third[Array("beyonc\u{e9}".utf8)]?.source
      #expect(
        composed == "disk" || composed == "cache",
        "canonically equivalent terms share an answer: \(String(describing: composed))")
    }
  }

  @Test func everyKeyFieldIsComparedAsItsBytes() async throws {
    let store = SQLiteStore.open(directory: try freshDirectory()) { line in Issue.record("unexpected report: \(line)") }
    func key(_ text: String) -> StoreKey {
      StoreKey(source: "src" + text, term: "t" + text, scope: "music" + text, limit: 25, country: "US" + text)
    }
    let suffixes = ["", "\u{0}", "\u{0}a", "\u{0}b", "'", "\u{0}\u{0}"]
    for (index, suffix) in suffixes.enumerated() {
      store.save(
        [.music: [SearchItem(id: index, trackName: "answer \(index)\u{0}")]],
        fetchedAt: store.wallClock.millisecondsSinceEpoch, for: key(suffix))
    }
    await store.flush()
    for (index, suffix) in suffixes.enumerated() {
      let items = await store.answer(for: key(suffix))?.items
      #expect(items?[.music]?.first?.id == index, "\(Array(suffix.utf8))")
      #expect(items?[.music]?.first?.trackName.map { Array($0.utf8) } == Array("answer \(index)\u{0}".utf8))
    }
    #expect(await store.answer(for: key("\u{0}c")) == nil)
  }

  @Test func evictionRemovesTheLeastRecentlyUsedKeyEvenWithANul() async throws {
    let clock = SetWallClock(1_000)
    let store = SQLiteStore.open(directory: try freshDirectory(), capacity: 2, wallClock: clock) { line in
      Issue.record("unexpected report: \(line)")
    }
    let keys = ["a\u{0}1", "a\u{0}2", "a"].map {
      StoreKey(source: "s", term: $0, scope: "music", limit: 25, country: "US")
    }
    for (index, key) in keys.enumerated() {
      clock.set(1_000 + Int64(index))
      store.save([.music: [SearchItem(id: index)]], fetchedAt: store.wallClock.millisecondsSinceEpoch, for: key)
      await store.flush()
    }
    #expect(await store.answer(for: keys[0]) == nil, "the oldest, a\\0 1, is the one evicted")
    #expect(await store.answer(for: keys[1])?.items?[.music]?.first?.id == 1)
    #expect(await store.answer(for: keys[2])?.items?[.music]?.first?.id == 2)
  }
}
