// The "catalog" section: the catalog. Query latency, p50 and p99, over the built-in catalog and 100,000
// generated filler items: the queries are what a user types, every prefix of a sample of the
// catalog's names and the same prefixes with a typo (two neighbouring letters swapped), each
// searched once with limit 25 in the name's own category and timed on its own; then the CPU per
// typed prefix through the binary (TypedPrefixes). (Start-up with the built-in catalog, a
// one-line replay of the binary, is in the "binary" section.)
import Catalog
import CatalogFiller
import Pipeline

/// Measures the "catalog" section.
struct CatalogSection {
  let options: BenchOptions
  let stopwatch: Stopwatch

  /// Queries per run (the sample of names is cut to this many prefixes and typos).
  static let queries = 10_000

  func measure(into table: inout ResultTable) async throws {
    for size in [nil, 100_000] as [Int?] {
      let catalog =
        size.map { CatalogQueries(items: CatalogSource.generatedItems(count: $0), queries: Self.queries) }
        ?? CatalogQueries(items: CatalogSource.builtInItems, source: CatalogSource(), queries: Self.queries)
      var p50: [Double] = []
      var p99: [Double] = []
      var answered = 0
      for run in 0...options.runs {
        var latencies = try await catalog.latencies(clock: stopwatch.clock, answered: &answered)
        guard run > 0 else { continue }  // The first run warms up.
        latencies.sort()
        p50.append(latencies[latencies.count / 2] / 1_000)
        p99.append(latencies[min(latencies.count - 1, latencies.count * 99 / 100)] / 1_000)
      }
      let items = String(catalog.itemCount).withThousandsSeparators
      let name = size == nil ? "built-in catalog (\(items) items)" : "\(items) generated items"
      let queries = catalog.requests.count
      let note =
        "\(String(queries).withThousandsSeparators) queries (\(catalog.names) names' prefixes + typos), "
        + "limit 25, \(answered * 100 / max(1, queries)) % answered"
      table.append(
        ResultRow(
          section: "4 catalog", name: "query latency p50, \(name)", unit: "µs",
          sample: Sample(p50), note: note))
      table.append(
        ResultRow(
          section: "4 catalog", name: "query latency p99, \(name)", unit: "µs",
          sample: Sample(p99), target: size == nil ? "≤ 50" : "≤ 100", note: note))
    }
    try TypedPrefixes(options: options, stopwatch: stopwatch).measure(into: &table)
  }
}

/// A catalog and the queries typed against it, built before timing.
struct CatalogQueries {
  let source: CatalogSource
  let requests: [SearchRequest]
  /// How many names the queries were taken from.
  let names: Int
  let itemCount: Int

  /// Indexes `items` (unless `source` already holds them) and takes up to `queries` queries
  /// from their names.
  init(items generated: [SearchItem], source: CatalogSource? = nil, queries: Int) {
    self.source = source ?? CatalogSource(items: generated)
    itemCount = generated.count
    var requests: [SearchRequest] = []
    var names = 0
    // About 500 names spread evenly over the catalog (popular ones come first, obscure ones
    // last), each giving about 25 queries.
    for item in stride(from: 0, to: generated.count, by: max(1, generated.count / 500)).map({ generated[$0] }) {
      guard requests.count < queries else { break }
      guard let category = Category(kind: item.kind, wrapperType: item.wrapperType),
        let name = item.trackName ?? item.collectionName
      else { continue }
      names += 1
      for term in Self.typedTerms(name) where requests.count < queries {
        requests.append(SearchRequest(term: term, category: category, limit: 25))
      }
    }
    self.requests = requests
    self.names = names
  }

  /// Every prefix of `name` ("T", "Ta", …) and, from 4 characters, the prefix with its last two
  /// letters swapped ("Tyalor" for "Taylor"): a typo the catalog matches within one edit.
  static func typedTerms(_ name: String) -> [String] {
    let characters = Array(name)
    var terms: [String] = []
    for length in characters.indices.map({ $0 + 1 }) {
      terms.append(String(characters[0..<length]))
      if length >= 4 {
        var typo = Array(characters[0..<length])
        typo.swapAt(length - 1, length - 2)
        terms.append(String(typo))
      }
    }
    return terms
  }

  /// Each query's latency in nanoseconds on `clock`, in query order; counts the queries that
  /// found something into `answered`.
  func latencies(clock: ContinuousClock, answered: inout Int) async throws -> [Double] {
    var latencies: [Double] = []
    latencies.reserveCapacity(requests.count)
    answered = 0
    for request in requests {
      let start = clock.now
      let found = try await source.search(request)
      latencies.append(nanoseconds(start.duration(to: clock.now)))
      if !found.isEmpty { answered += 1 }
    }
    guard answered > 0 else { throw BenchmarkFailure(description: "no catalog query found anything") }
    return latencies
  }
}
