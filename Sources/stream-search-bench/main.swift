// stream-search-bench: the release-build benchmark of every hot path. Prints one table
// (or JSON): each figure is the median of 5 runs after a warm-up, with min and max.
// Run: swift run -c release stream-search-bench [--json] [--quick]
import Foundation
import Streams

let options: BenchOptions
do {
  options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  if let message = error.message {
    FileHandle.standardError.write(Data("Error: \(message)\n\(BenchOptions.usage)\n".utf8))
    exit(64)
  }
  print(BenchOptions.usage)
  exit(0)
}

/// Runs the chosen sections off the main actor, section by section, and returns the table.
func runBenchmarks(_ options: BenchOptions) async throws -> ResultTable {
  let stopwatch = Stopwatch(clock: ContinuousClock(), runs: options.runs)
  var table = ResultTable()
  // The binary first: Linux reports a spawned child's peak RSS as at least what this process
  // held when it spawned it, and the virtual-time workloads below grow this process to ~2 GB.
  if options.includes("binary") {
    try await BinarySection(options: options, stopwatch: stopwatch).measure(into: &table)
  }
  if options.includes("engine") {
    try await EngineSection(options: options, stopwatch: stopwatch).measure(into: &table)
  }
  if options.includes("signals") { try await SignalSection().measure(into: &table) }
  if options.includes("cancel") { try await CancelSection().measure(into: &table) }
  if options.includes("scaleout") { try await ScaleOutSection(options: options).measure(into: &table) }
  if options.includes("interactive") { try await InteractiveSection(options: options).measure(into: &table) }
  let operators = OperatorSection(options: options, stopwatch: stopwatch)
  if options.includes("operators") { try await operators.live(into: &table) }
  if options.includes("lines") { try await operators.overLineReader(into: &table) }
  if options.includes("virtual") { try await operators.virtual(into: &table) }
  if options.includes("replay") {
    try await ReplaySection(options: options, stopwatch: stopwatch).measure(into: &table)
  }
  if options.includes("catalog") {
    try await CatalogSection(options: options, stopwatch: stopwatch).measure(into: &table)
  }
  if options.includes("long") {
    let terms = LongQueries.terms()
    // Kept for a look with callgrind: `stream-search --replay --input .bench/long-queries.jsonl`.
    let recording = TraceFile.packageRoot().appendingPathComponent(".bench/long-queries.jsonl")
    try? Data(TypedPrefixes.recording(of: terms)).write(to: recording)
    try TypedPrefixes(options: options, stopwatch: stopwatch).measure(
      terms, section: "4 catalog", name: "CPU per typed prefix of long queries, start-up subtracted",
      describing: "long queries (3+ words from the catalog's names, every third with a typo in its last word)",
      into: &table)
  }
  if options.includes("million") {
    try await MillionSection(options: options, stopwatch: stopwatch).measure(into: &table)
  }
  if options.includes("cache") { try await CacheSection(options: options, stopwatch: stopwatch).measure(into: &table) }
  if options.includes("disk") { try await DiskSection(options: options, stopwatch: stopwatch).measure(into: &table) }
  if options.includes("webserver") { try await WebServerSection(options: options).measure(into: &table) }
  if options.includes("serve") { try await ServeSection(options: options).measure(into: &table) }
  return table
}

let started = processCPUNanoseconds()
let wallClock = ContinuousClock()
let wallStart = wallClock.now
// The consumer of every workload runs in this task, on the global concurrent executor, not on
// the main actor.
let outcome = await Task(inheritingExecutor: { @concurrent () async -> Result<ResultTable, any Error> in
  do { return .success(try await runBenchmarks(options)) } catch { return .failure(error) }
}).value
switch outcome {
case .success(let table):
  if options.json {
    print((try? table.json()) ?? "[]")
  } else {
    print(table.text())
    let wall = nanoseconds(wallStart.duration(to: wallClock.now)) / 1e9
    let cpu = (processCPUNanoseconds() - started) / 1e9
    print(
      String(
        format: "\nruns: %d after a warm-up; total %.0f s wall, %.0f s CPU; peak RSS %d MB",
        options.runs, wall, cpu, peakResidentBytes() >> 20))
  }
case .failure(let error):
  FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
  exit(1)
}
