// Section 4: catalog query latency, p50 and p99, over 10,000 and 100,000 items.
//
// TODO(lead): CatalogSource is not on this branch yet. Once it is merged, fill in
// `catalogQueryLatencies(items:queries:)` below: build a catalog of `items` items, run `queries`
// searches of the recording's terms against it (one `search(_:)` each, no latency), and return
// each query's latency in nanoseconds. The rest of the section (percentiles, rows) is done.
import Pipeline

/// Measures section 4.
struct CatalogSection {
  let options: BenchOptions
  let stopwatch: Stopwatch

  func measure(into table: inout ResultTable) async throws {
    for items in [10_000, 100_000] {
      var p50: [Double] = []
      var p99: [Double] = []
      for run in 0...options.runs {
        guard var latencies = try await catalogQueryLatencies(items: items, queries: 10_000) else { break }
        guard run > 0 else { continue }  // The first run warms up.
        latencies.sort()
        p50.append(latencies[latencies.count / 2] / 1_000)
        p99.append(latencies[min(latencies.count - 1, latencies.count * 99 / 100)] / 1_000)
      }
      let note = p50.isEmpty ? "pending: CatalogSource is not merged yet (hook in CatalogSection.swift)" : ""
      let size = String(items).withThousandsSeparators
      table.append(ResultRow(section: "4 catalog", name: "query latency p50, \(size) items", unit: "µs",
        sample: p50.isEmpty ? nil : Sample(p50), note: note))
      table.append(ResultRow(section: "4 catalog", name: "query latency p99, \(size) items", unit: "µs",
        sample: p99.isEmpty ? nil : Sample(p99), target: items == 100_000 ? "≤ 200" : "", note: note))
    }
  }

  /// The latency of each of `queries` catalog searches over `items` items, in nanoseconds; nil
  /// until CatalogSource exists (see the TODO at the top of this file).
  func catalogQueryLatencies(items: Int, queries: Int) async throws -> [Double]? {
    nil
  }
}
