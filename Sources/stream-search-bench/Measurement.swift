// How the benchmark measures: a small warm-up, then a number of timed runs; every figure is the
// median of the runs with their min and max. Time is wall time on an injected clock, or the
// process's CPU time where sleeps would hide the work (debounce).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The median, min and max of a figure over the timed runs.
struct Sample: Sendable, Codable {
  var median: Double
  var min: Double
  var max: Double

  /// Summarises `values` (at least one).
  init(_ values: [Double]) {
    let sorted = values.sorted()
    median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    min = sorted.first ?? 0
    max = sorted.last ?? 0
  }

  /// The same sample multiplied by `factor` (a change of unit).
  func scaled(by factor: Double) -> Sample {
    Sample(median: median * factor, min: min * factor, max: max * factor)
  }

  private init(median: Double, min: Double, max: Double) {
    self.median = median
    self.min = min
    self.max = max
  }

  /// The same sample under a monotonic transform that reverses order (e.g. a rate from a time).
  func inverted(_ transform: (Double) -> Double) -> Sample {
    var sample = self
    sample.median = transform(median)
    sample.min = transform(max)
    sample.max = transform(min)
    return sample
  }
}

/// What a run's duration is read from.
enum Meter: Sendable {
  /// Elapsed time on the benchmark's clock.
  case wall
  /// User plus system CPU time of the whole process (getrusage), so work done by other threads
  /// counts and time spent asleep does not.
  case processCPU
}

/// Times runs of one workload.
struct Stopwatch: Sendable {
  let clock: ContinuousClock
  let runs: Int

  /// Runs `body(warmUpSize)` once untimed, then `body(size)` `runs` times, and returns the
  /// per-unit figure of each timed run in nanoseconds (elapsed ÷ `units`).
  func nanosecondsPerUnit(
    meter: Meter, size: Int, warmUpSize: Int, units: Double,
    _ body: (Int) async throws -> Void
  ) async throws -> Sample {
    try await body(warmUpSize)
    var values: [Double] = []
    for _ in 0..<runs {
      let elapsed = try await time(meter: meter) { try await body(size) }
      values.append(elapsed / units)
    }
    return Sample(values)
  }

  /// The duration of `body` in nanoseconds, read from `meter`.
  func time(meter: Meter, _ body: () async throws -> Void) async throws -> Double {
    switch meter {
    case .wall:
      let start = clock.now
      try await body()
      return nanoseconds(start.duration(to: clock.now))
    case .processCPU:
      let start = processCPUNanoseconds()
      try await body()
      return processCPUNanoseconds() - start
    }
  }
}

/// A duration in nanoseconds, as a Double.
func nanoseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

/// The process's user plus system CPU time so far, in nanoseconds.
func processCPUNanoseconds() -> Double {
  var usage = rusage()
  getrusage(rusageSelf, &usage)
  let user = Double(usage.ru_utime.tv_sec) * 1e9 + Double(usage.ru_utime.tv_usec) * 1e3
  let system = Double(usage.ru_stime.tv_sec) * 1e9 + Double(usage.ru_stime.tv_usec) * 1e3
  return user + system
}

/// The process's peak resident set size so far, in bytes.
func peakResidentBytes() -> Int {
  var usage = rusage()
  getrusage(rusageSelf, &usage)
  return Int(usage.ru_maxrss) * 1_024
}

/// A workload that did not do what it was built to do (its result would be meaningless).
struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
}

/// Throws unless `actual == expected`: every workload checks its own output.
func check(_ what: String, _ actual: Int, equals expected: Int) throws {
  guard actual == expected else {
    throw BenchmarkFailure(description: "\(what): expected \(expected), got \(actual)")
  }
}

/// RUSAGE_SELF, typed as getrusage wants it on each platform.
#if canImport(Glibc)
  private let rusageSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
  private let rusageSelf = RUSAGE_SELF
#endif
