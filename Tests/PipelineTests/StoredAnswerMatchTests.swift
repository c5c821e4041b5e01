// An answer kept in a store (SQLite on disk, or Redis, both through the same item coding) says how
// each item matched, as the fresh answer did: an event written from the stored answer is the same
// bytes as one written from the fresh answer.
import Catalog
import Foundation
import Pipeline
import SQLiteStorage
import Testing

@testable import Pipeline

@Suite struct StoredAnswerMatchTests {
  /// Terms whose answers hold each kind of match (exact, prefix, typo and partial), the category
  /// each is searched in, and the category its answer is stored under (one list per category).
  static let terms: [(String, Category, Category)] = [
    ("frozen", .movies, .movies), ("taylor sw", .music, .music), ("metalica", .music, .podcasts),
    ("helene fischer xqzv", .music, .tvShow),
  ]

  @Test func anAnswerReadBackFromTheDiskIsTheSameBytesAsTheFreshOne() async throws {
    let source = CatalogSource()
    var fresh: [Category: [SearchItem]] = [:]
    for (term, category, slot) in Self.terms {
      fresh[slot] = try await source.search(SearchRequest(term: term, category: category, limit: 5))
    }
    let qualities = Set(fresh.values.flatMap { $0.compactMap { $0.match?.quality } })
    #expect(qualities == Set(SearchMatch.Quality.allCases), "the answers hold every kind of match: \(qualities)")

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stored-answer-match-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = SQLiteStore.open(directory: directory, wallClock: SystemWallClock()) { line in
      Issue.record("unexpected report: \(line)")
    }
    let key = StoreKey(source: "catalog", term: "t", scope: "all", limit: 5, country: "US")
    store.save(fresh, fetchedAt: 0, for: key)
    await store.flush()
    let read = try #require(await store.answer(for: key)?.items)
    for category in fresh.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
      let (freshItems, readItems) = (fresh[category] ?? [], read[category] ?? [])
      #expect(readItems.map { $0.match?.description } == freshItems.map { $0.match?.description })
      #expect(Self.event(readItems, category) == Self.event(freshItems, category), "\(category)")
    }
  }

  @Test func aStoredAnswerWrittenBeforeMatchesWereKeptReadsBackWithoutThem() throws {
    var item = SearchItem(id: 7, trackName: "Frozen")
    item.match = SearchMatch(.partial, matchedWords: ["helene", "fischer"])
    let bytes = StoredItemsCoding.encode([.music: [item]])
    let decoded = try #require(StoredItemsCoding.decode(bytes)?[.music]?.first)
    #expect(decoded.match == item.match)
    // The same item stored without its match: no match bit in its field mask.
    var plain = item
    plain.match = nil
    let old = StoredItemsCoding.encode([.music: [plain]])
    #expect(try #require(StoredItemsCoding.decode(old)?[.music]?.first).match == nil)
    for length in [bytes.count - 1, bytes.count - 4, old.count] {
      #expect(StoredItemsCoding.decode(Array(bytes.prefix(length))) == nil, "cut at \(length) of \(bytes.count)")
    }
  }

  /// A results event of `items`, as the tool writes it.
  static func event(_ items: [SearchItem], _ category: Category) -> String {
    JSONLinesEncoder().encode(
      SearchEvent(
        seq: 1, atMilliseconds: 0,
        kind: .results(
          term: "t", source: .load,
          categories: [CategoryResult(category: category, outcome: .items(items, from: .catalog))],
          elapsedMilliseconds: 0)))
  }
}
