// The indexed search against the ranking rule's definition (`CatalogRanking`), which ranks every
// item of a generated catalog one by one, for keystroke prefixes and typos of names in the catalog.
import CatalogFiller
import TestSupport
import Testing

@testable import Catalog
@testable import Pipeline

@Suite struct CatalogReferenceTests {
  private static let items = CatalogSource.generatedItems(count: 1_000)
  private static let source = CatalogSource(items: items)
  /// Each item as the rule sees it, folded once.
  private static let candidates = rankingCandidates(items)
  /// A larger catalog, where queries of common short words walk thousands of candidates and
  /// the walks are long.
  private static let largeItems = CatalogSource.generatedItems(count: 8_000)
  private static let largeSource = CatalogSource(items: largeItems)
  /// The definition over the large catalog, ranking for each query only the candidates that
  /// some tier may match (the small catalog's test checks that this changes no answer).
  private static let largeRankings = narrowedRankings(rankingCandidates(largeItems))
  /// Every word of the small catalog's names, all categories together.
  private static let catalogWords = CatalogRanking.dictionary(of: candidates.values.flatMap { $0 })

  /// A `NarrowedRanking` per category, which knows the words of the other categories too.
  private static func narrowedRankings(
    _ candidates: [Category: [CatalogRanking.Candidate]]
  ) -> [Category: NarrowedRanking] {
    let words = CatalogRanking.dictionary(of: candidates.values.flatMap { $0 })
    return candidates.mapValues { NarrowedRanking($0, catalogWords: words) }
  }

  private static func rankingCandidates(_ items: [SearchItem]) -> [Category: [CatalogRanking.Candidate]] {
    var candidates: [Category: [CatalogRanking.Candidate]] = [:]
    for item in items {
      guard let category = Category(kind: item.kind, wrapperType: item.wrapperType) else { continue }
      candidates[category, default: []].append(CatalogRanking.Candidate(item: item, category: category))
    }
    return candidates
  }

  // Every item of the category ranked by the definition itself. The whole ranking (every item
  // the rule matches, in order) is also what `NarrowedRanking` must find, which the tests over
  // the larger catalogs rely on.
  @Test func indexedSearchAgreesWithABruteForceRanking() async throws {
    try await OwnThread.running {
      let narrowed = Self.narrowedRankings(Self.candidates)
      let catalogStarts = { (word: FoldedWord) in CatalogRanking.startsSomeWord(word, in: Self.catalogWords) }
      var compared = 0
      for (term, category) in Self.queries() {
        let request = SearchRequest(term: term, category: category, limit: 10)
        let indexed = try await Self.source.search(request).map(\.id)
        let ranking = CatalogRanking.answerOrPartial(
          CatalogQuery(term), in: Self.candidates[category] ?? [], limit: .max, catalogStarts: catalogStarts)
        #expect(indexed == Array(ranking.prefix(10)), "\(term) [\(category)]")
        let narrowedRanking = narrowed[category]?.answer(CatalogQuery(term), limit: .max) ?? []
        #expect(narrowedRanking == ranking, "narrowed: \(term) [\(category)]")
        compared += 1
      }
      #expect(compared > 150)
    }
  }

  @Test func longWalksAgreeWithABruteForceRanking() async throws {
    try await OwnThread.running {
      let terms = [
        "the n", "the re", "echo i n", "birds i n", "dream to the h", "the red cr", "sing to th e", "don't of",
        "rose of sta", "the lost el", "the aL", "red l", "wolves i", "strnger", "the rivres", "i n", "in the",
        "hold with the m", "the northern lake", "love", "ghost in ma", "theriver", "lovesong", "the lo ve", "redli",
      ]
      for term in terms {
        for category in Category.defaults {
          let request = SearchRequest(term: term, category: category, limit: 25)
          let indexed = try await Self.largeSource.search(request).map(\.id)
          let reference = Self.largeRankings[category]?.answer(CatalogQuery(term), limit: 25) ?? []
          #expect(indexed == reference, "\(term) [\(category)]")
        }
      }
    }
  }

  /// Every keystroke prefix of a name of every 50th item, the name written as one word and with
  /// its first two words joined, and the name with a letter dropped and with two letters swapped.
  private static func queries() -> [(String, Category)] {
    var queries: [(String, Category)] = []
    for item in items.enumerated().filter({ $0.offset % 50 == 0 }).map(\.element) {
      guard let category = Category(kind: item.kind, wrapperType: item.wrapperType),
        let name = [item.trackName, item.artistName, item.collectionName][item.id % 3] ?? item.trackName
      else { continue }
      var prefix = ""
      for character in name {
        prefix.append(character)
        queries.append((prefix, category))
      }
      // Written as one word, and with its first two words joined (a respelling each way).
      let words = name.split(separator: " ")
      if words.count >= 2 {
        queries.append((words.joined(), category))
        queries.append(((["\(words[0])\(words[1])"] + words.dropFirst(2)).joined(separator: " "), category))
      }
      var letters = Array(name)
      if letters.count > 5 {
        letters.remove(at: letters.count / 2)
        queries.append((String(letters), category))
        letters.swapAt(1, 2)
        queries.append((String(letters), category))
      }
    }
    return queries
  }

}
