import CatalogQueries
import TestSupport
import Testing

// The project's query set (CatalogQuerySet) against the built-in catalog: the first item of
// each query's category, the rates per kind, and the index against the ranking rule's
// definition on the same queries.
@testable import Catalog
@testable import Pipeline

@Suite struct CatalogQuerySetTests {
  typealias Kind = CatalogQuerySet.Kind
  typealias Query = CatalogQuerySet.Query
  static let knownMisses = CatalogQuerySet.knownMisses
  static let queries = CatalogQuerySet.queries

  @Test func theQuerySetFindsWhatPeopleTypeFirst() async throws {
    let (missed, hits) = try await OwnThread.running { () -> (Set<String>, [Kind: Int]) in
      let source = CatalogSource()
      var missed: Set<String> = []
      var hits: [Kind: Int] = [:]
      for query in Self.queries {
        let first = try await source.search(SearchRequest(term: query.term, category: query.category, limit: 25)).first
        if query.isAnsweredFirst(by: first) {
          hits[query.kind, default: 0] += 1
        } else {
          missed.insert(query.term)
        }
      }
      return (missed, hits)
    }
    #expect(Self.queries.count >= 236)
    let newMisses = missed.subtracting(Self.knownMisses).sorted()
    let nowFound = Self.knownMisses.subtracting(missed).sorted()
    #expect(missed == Self.knownMisses, "new misses: \(newMisses), now found: \(nowFound)")
    let rate = Double(Self.queries.count - missed.count) / Double(Self.queries.count)
    let rates = Kind.allCases.map { kind in
      "\(kind.rawValue) \(hits[kind, default: 0])/\(Self.queries.filter { $0.kind == kind }.count)"
    }
    #expect(rate >= 0.97, "first right for \(Int(rate * 100)) %: \(rates.joined(separator: ", "))")
  }

  @Test func noQueryAnswersEveryCategoryWithNothing() async throws {
    let source = CatalogSource()
    var empty: [String] = []
    for query in Self.queries {
      let answers = source.answerAtOnce(
        SearchRequest(term: query.term, category: .music, limit: 25), categories: Category.defaults,
        searching: Category.defaults)
      if answers.values.allSatisfy(\.isEmpty) { empty.append(query.term) }
    }
    #expect(empty.isEmpty, "answered with nothing at all: \(empty)")
  }

  @Test func theIndexAnswersTheQuerySetAsTheRankingRuleDefinesIt() async throws {
    try await OwnThread.running {
      let catalog = BuiltInCatalog.shared
      let source = CatalogSource()
      let names = catalog.foldedNames()
      let catalogWords = names.words.sorted { $0.lexicographicallyPrecedes($1) }
      for category in [Category.music, .movies, .podcasts] {
        let candidates = (0..<catalog.count).filter { catalog.category(at: $0) == category }.map { position in
          CatalogRanking.Candidate(store: catalog, position: position, names: names, category: category)
        }
        // The definition ranks only the items some tier may match (NarrowedRanking, checked
        // against the whole definition in CatalogReferenceTests); every item would take minutes
        // in a debug build.
        let definition = NarrowedRanking(candidates, catalogWords: catalogWords)
        for (number, query) in Self.queries.enumerated() where query.category == category && number % 5 == 0 {
          let indexed = try await source.search(SearchRequest(term: query.term, category: category, limit: 10))
          let defined = definition.answer(CatalogQuery(query.term), limit: 10)
          #expect(indexed.map(\.id) == defined, "\(query.term) [\(category)]")
        }
      }
    }
  }

  @Test func theEmbeddedCatalogIsWhole() async {
    let (count, counts) = await OwnThread.running { () -> (Int, [Category: Int]) in
      let catalog = BuiltInCatalog.shared
      var counts: [Category: Int] = [:]
      for position in 0..<catalog.count {
        if let category = catalog.category(at: position) { counts[category, default: 0] += 1 }
      }
      return (catalog.count, counts)
    }
    #expect(counts.values.reduce(0, +) == count, "every item is of a known kind")
    #expect(count > 25_000)
    #expect(counts[.movies, default: 0] > 17_000)
    #expect(counts[.music, default: 0] > 8_000)
    #expect(counts[.podcasts, default: 0] >= 300)
    #expect(counts[.tvShow, default: 0] > 200)
  }
}
