// The "million" section: a store's own catalog of 1,000,000 items. The filler makes them (songs,
// films and podcasts named from word lists by a seeded generator, the same on every run); the
// figures are what indexing them costs (wall and CPU time, and the resident memory it adds beside
// the size of the same items as a JSON file) and the latency of a search per typed prefix, as the
// "catalog" section measures it for 100,000 items. Not in the default run (it takes a minute and
// grows the benchmark by about 2 GB); `--only million` or `--full`.
import Catalog
import CatalogFiller
import Foundation
import Pipeline

/// Measures the "million" section.
struct MillionSection {
  let options: BenchOptions
  let stopwatch: Stopwatch

  /// How many items the catalog holds.
  static let itemCount = 1_000_000

  func measure(into table: inout ResultTable) async throws {
    let residentAtStart = currentResidentBytes()
    let items = CatalogSource.generatedItems(count: Self.itemCount)
    let itemBytes = currentResidentBytes() - residentAtStart
    let fileBytes = Self.jsonBytes(of: items)
    // After the JSON's sizing, whose freed buffers the allocator may keep resident.
    let residentBefore = currentResidentBytes()
    let cpuBefore = processCPUNanoseconds()
    let start = stopwatch.clock.now
    let source = CatalogSource(items: items)
    let buildSeconds = nanoseconds(start.duration(to: stopwatch.clock.now)) / 1e9
    let buildCPU = (processCPUNanoseconds() - cpuBefore) / 1e9
    let residentAfter = currentResidentBytes()
    let added = Double(residentAfter - residentBefore) / Double(1 << 20)
    let whole = Double(itemBytes) / Double(1 << 20) + added
    let fileMegabytes = Double(fileBytes) / Double(1 << 20)
    let name = "\(String(Self.itemCount).withThousandsSeparators) generated items"
    table.append(
      ResultRow(
        section: "4 catalog", name: "index build, \(name)", unit: "s", sample: Sample([buildSeconds]),
        target: "≤ 5", note: String(format: "wall; %.1f s of CPU (two threads may index at once)", buildCPU)))
    table.append(
      ResultRow(
        section: "4 catalog", name: "resident memory of the items and their index, \(name)", unit: "MB",
        sample: Sample([whole]), target: String(format: "≤ %.0f, 3 × the JSON", 3 * fileMegabytes),
        note: String(
          format: "the items as a JSON file: %.0f MB; of the resident memory, the index %.0f MB", fileMegabytes, added)
      ))

    let catalog = CatalogQueries(items: items, source: source, queries: CatalogSection.queries)
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
    let queries = catalog.requests.count
    let note =
      "\(String(queries).withThousandsSeparators) queries (\(catalog.names) names' prefixes + typos), "
      + "limit 25, \(answered * 100 / max(1, queries)) % answered"
    table.append(
      ResultRow(section: "4 catalog", name: "query latency p50, \(name)", unit: "µs", sample: Sample(p50), note: note))
    table.append(
      ResultRow(
        section: "4 catalog", name: "query latency p99, \(name)", unit: "µs", sample: Sample(p99),
        target: "≤ 200, 2 × 100,000 items' ≤ 100", note: note))
    withExtendedLifetime(source) {}
  }

  /// The size of `items` written as a JSON array, one item as the tool writes it after another.
  static func jsonBytes(of items: [SearchItem]) -> Int {
    let encoder = JSONLinesEncoder()
    return items.reduce(2) { $0 + encoder.encode($1).utf8.count }
  }
}

/// This process's resident set size now (/proc/self/statm), in bytes; 0 where it cannot be read.
func currentResidentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
