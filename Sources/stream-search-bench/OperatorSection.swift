// The operator sections ("operators", "lines", "virtual"): the operators, in nanoseconds per input
// element, live on ContinuousClock and then inside a VirtualTimeRunner.
import LineIO
import Streams

/// Measures the operator sections.
struct OperatorSection {
  let options: BenchOptions
  let stopwatch: Stopwatch
  let pool = ElementPool()

  /// The live figures (ContinuousClock, consumer on the global concurrent executor).
  func live(into table: inout ResultTable) async throws {
    let work = OperatorWorkloads(pool: pool, clock: ContinuousClock())
    let n = options.elements
    table.append(
      row(
        "(a) producer → AsyncStream → consumer", target: "≤ 1,000", anchor: "1,100–2,000",
        sample: try await perElement(n) { try await work.asyncStream($0) }))
    table.append(
      row(
        "(b) AsyncStream + removeDuplicates (half repeat)", target: "≤ 600", anchor: "1,200–2,200",
        sample: try await perElement(n) { try await work.removeDuplicates($0) }))
    let debounceSize = options.debounceBursts * 1_000
    table.append(
      row(
        "(c) AsyncStream + debounce(50 ms), CPU ÷ N", target: "≤ 2,000", anchor: "4,000",
        sample: try await stopwatch.nanosecondsPerUnit(
          meter: .processCPU, size: debounceSize, warmUpSize: max(1_000, debounceSize / 10),
          units: Double(debounceSize)
        ) { try await work.debounce($0) },
        note: "\(options.debounceBursts) bursts of 1,000"))
    table.append(
      row(
        "(d) AsyncStream + switchMap, all superseded", target: "", anchor: "",
        sample: try await perElement(n) { try await work.switchMap($0) }))
    table.append(
      row(
        "(e) merge of three AsyncStreams of N/3", target: "≤ 1,600", anchor: "3,200–5,000",
        sample: try await perElement(n) { try await work.merge3($0) }))
  }

  /// The operators over our own source, LineReader on a pipe fed by a writer thread.
  func overLineReader(into table: inout ResultTable) async throws {
    let work = LinePipeWorkload(pool: pool)
    let n = options.elements
    let warmUp = max(1_000, n / 10)
    func payloads(_ element: @escaping (_ index: Int, _ count: Int) -> String) -> (Int) -> [UInt8] {
      let full = work.payload(n) { element($0, n) }
      let small = work.payload(warmUp) { element($0, warmUp) }
      return { $0 == n ? full : small }
    }
    let distinct = payloads { index, _ in pool[index] }
    let repeated = payloads { index, _ in pool[index / 2] }
    let endsWithLast = payloads { index, count in
      index == count - 1 ? LinePipeWorkload.lastLine : pool[index]
    }
    let thirds = (0..<3).map { base in
      (full: work.payload(n / 3) { pool[base * n / 3 + $0] }, warmUp: work.payload(warmUp / 3) { pool[$0] })
    }
    table.append(
      row(
        "(a) writer thread → pipe → LineReader → consumer", section: "1 lines", target: "≤ 1,000",
        sample: try await perElement(n) { try await work.baseline(distinct($0), lines: $0) }))
    table.append(
      row(
        "(b) LineReader + removeDuplicates (half repeat)", section: "1 lines", target: "≤ 600",
        anchor: "1,200–2,200",
        sample: try await perElement(n) { try await work.removeDuplicates(repeated($0), lines: $0) }))
    let burstCount = options.debounceBursts
    let bursts = (0..<burstCount).map { burst in work.payload(1_000) { pool[burst * 1_000 + $0] } }
    table.append(
      row(
        "(c) LineReader + debounce(50 ms), CPU ÷ N", section: "1 lines", target: "≤ 2,000", anchor: "4,000",
        sample: try await stopwatch.nanosecondsPerUnit(
          meter: .processCPU, size: burstCount, warmUpSize: max(1, burstCount / 10), units: Double(burstCount * 1_000)
        ) { try await work.debounce(Array(bursts.prefix($0))) },
        note: "\(burstCount) bursts of 1,000"))
    table.append(
      row(
        "(d) LineReader + switchMap, all superseded", section: "1 lines",
        sample: try await perElement(n) { try await work.switchMap(endsWithLast($0), lines: $0) }))
    table.append(
      row(
        "(e) merge of three LineReaders of N/3", section: "1 lines", target: "≤ 1,600",
        anchor: "3,200–5,000",
        sample: try await perElement(n) { size in
          let full = size == n
          try await work.merge3(thirds.map { full ? $0.full : $0.warmUp }, lines: (full ? n : warmUp) / 3 * 3)
        }))
  }

  /// The same workloads on a VirtualTimeRunner: one thread, time moves only when idle.
  func virtual(into table: inout ResultTable) async throws {
    let n = options.elements
    func inRunner(_ body: @escaping @Sendable (OperatorWorkloads<ManualClock>, Int) async throws -> Void)
      -> (Int) async throws -> Void
    {
      { [pool] size in
        let runner = VirtualTimeRunner()
        let work = OperatorWorkloads(pool: pool, clock: runner.clock)
        try runner.run { try await body(work, size) }
      }
    }
    table.append(
      row(
        "(a) AsyncStream", section: "1 virtual",
        sample: try await perElement(
          n,
          inRunner {
            try await $0.asyncStream($1)
          })))
    table.append(
      row(
        "(b) + removeDuplicates", section: "1 virtual",
        sample: try await perElement(
          n,
          inRunner {
            try await $0.removeDuplicates($1)
          })))
    let debounceSize = 1_000 * 1_000
    table.append(
      row(
        "(c) + debounce(50 ms), 1,000 bursts, CPU ÷ N", section: "1 virtual",
        sample: try await stopwatch.nanosecondsPerUnit(
          meter: .processCPU, size: debounceSize, warmUpSize: debounceSize / 10, units: Double(debounceSize),
          inRunner { try await $0.debounce($1) })))
    table.append(
      row(
        "(d) + switchMap, all superseded", section: "1 virtual",
        sample: try await perElement(
          n,
          inRunner {
            try await $0.switchMap($1)
          })))
    table.append(
      row(
        "(e) merge of three", section: "1 virtual",
        sample: try await perElement(
          n,
          inRunner {
            try await $0.merge3($1)
          })))
  }

  private func perElement(_ n: Int, _ body: (Int) async throws -> Void) async throws -> Sample {
    try await stopwatch.nanosecondsPerUnit(
      meter: .wall, size: n, warmUpSize: max(1_000, n / 10),
      units: Double(n), body)
  }

  private func row(
    _ name: String, section: String = "1 live", target: String = "", anchor: String = "", sample: Sample,
    note: String = ""
  ) -> ResultRow {
    ResultRow(
      section: section, name: name, unit: "ns/element", sample: sample, target: target,
      anchor: anchor.isEmpty ? "" : "async-algorithms \(anchor)", note: note)
  }
}
