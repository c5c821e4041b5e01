// The "serve" section: the release binary's `stream-search serve` (the offline catalog, no disk
// cache) as people use it. (a) As many WebSocket sessions as the descriptor limit allows, up to
// 10,000, open at once, each typing words at 10 keys/s (SessionLoad): p50 and p99 from a word's
// last key to its `results` frame, minus the debounce; serve's CPU per key and peak RSS (VmHWM)
// over the run.
// (b) `GET /search` with keep-alive on one repeated query, measured with wrk, against a private
// nginx serving the same response body as a static file, alternating run by run in the same run
// of the benchmark, so that both see the same machine.
import Foundation
import TestSupport

/// Measures the "serve" section.
struct ServeSection {
  let options: BenchOptions
  static let section = "14 serve"
  static let query = "/search?q=queen"

  func measure(into table: inout ResultTable) async throws {
    guard let binary = BinarySection.binary(for: Self.section, into: &table) else { return }
    // Each session is a descriptor here and one in serve, which inherits this limit.
    let limit = Self.raiseDescriptorLimit()
    let sessions = max(1, min(options.serveSessions, limit - 200))
    let server = try await ServeChild.start(binary)
    let outcome: SessionLoad.Outcome
    let peak: Double?
    var perKey: Double?
    // Printed after the sessions' rows, measured after them on the same server.
    var rates = ResultTable()
    do {
      let load = SessionLoad(
        port: server.port, sessions: sessions, wordsPerSession: options.runs <= 3 ? 2 : 3,
        debounce: .milliseconds(300), threads: 2, limit: .seconds(300))
      let before = server.cpuSeconds()
      outcome = try await Self.onThread { try load.run() }
      peak = server.peakResidentMegabytes()
      if let before, let after = server.cpuSeconds(), outcome.keys > 0 {
        perKey = (after - before) / Double(outcome.keys) * 1e6
      }
      try await searchRate(port: server.port, into: &rates)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
    let sorted = outcome.latencies.sorted()
    let percentile = { (fraction: Double) -> Sample? in
      sorted.isEmpty ? nil : Sample([sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]])
    }
    let opened = sessions - outcome.refused
    table.append(
      ResultRow(
        section: Self.section, name: "WebSocket sessions open at once, typing at 10 keys/s", unit: "sessions",
        sample: Sample([Double(opened)]), target: "≥ 10,000, the issue's load",
        anchor: "ulimit -n \(limit)",
        note: String(
          format: "opened in %.1f s; %d refused; %d words unanswered", outcome.openSeconds,
          outcome.refused, outcome.unanswered)))
    table.append(
      ResultRow(
        section: Self.section, name: "last key → results, minus the 300 ms debounce, p50", unit: "ms",
        sample: percentile(0.5), anchor: "\(sorted.count) words"))
    table.append(
      ResultRow(
        section: Self.section, name: "last key → results, minus the 300 ms debounce, p99", unit: "ms",
        sample: percentile(0.99), target: "≤ 5", anchor: "\(sorted.count) words"))
    table.append(
      ResultRow(
        section: Self.section, name: "serve's CPU per keystroke in the sessions' run", unit: "µs",
        sample: perKey.map { Sample([$0]) }, anchor: "\(outcome.keys) keys, every word searched",
        note: "open, close and searches included"))
    table.append(
      ResultRow(
        section: Self.section, name: "serve's peak RSS over the sessions' run", unit: "MB",
        sample: peak.map { Sample([$0]) }, target: "≤ 300", anchor: "VmHWM"))
    for row in rates.rows { table.append(row) }
  }

  /// `GET /search` against nginx serving its body, run by run.
  private func searchRate(port: UInt16, into table: inout ResultTable) async throws {
    for tool in [WebServerSection.wrk, NginxServer.tool] where !tool.isAvailable {
      table.append(ResultRow(section: Self.section, name: tool.name, unit: "", sample: nil, note: tool.skipNote))
      return
    }
    let body = try ServeChild.get(port: port, path: Self.query)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try body.write(to: directory.appendingPathComponent("search"))
    let nginx = try await NginxServer.start(
      executable: try NginxServer.tool.path(),
      serverBody: "location / { root \(directory.path); default_type application/json; }")
    defer {
      nginx.stop()
      try? FileManager.default.removeItem(at: directory)
    }
    let seconds = options.runs <= 3 ? 3 : 5
    var ours: [Double] = []
    var theirs: [Double] = []
    var ratios: [Double] = []
    _ = try await WebServerSection.rate(port: port, path: Self.query, seconds: 1)
    _ = try await WebServerSection.rate(port: nginx.port, path: Self.query, seconds: 1)
    for _ in 0..<options.runs {
      let own = try await WebServerSection.rate(port: port, path: Self.query, seconds: seconds)
      let reference = try await WebServerSection.rate(port: nginx.port, path: Self.query, seconds: seconds)
      ours.append(own)
      theirs.append(reference)
      ratios.append(own / reference)
    }
    table.append(
      ResultRow(
        section: Self.section, name: "GET \(Self.query), keep-alive (\(body.count)-byte answer)", unit: "req/s",
        sample: Sample(ours), anchor: "wrk -t1 -c32 -d\(seconds)s"))
    table.append(
      ResultRow(
        section: Self.section, name: "nginx, the same body as a static file", unit: "req/s", sample: Sample(theirs),
        anchor: "1 worker, same run"))
    table.append(
      ResultRow(
        section: Self.section, name: "serve /search / nginx", unit: "×", sample: Sample(ratios), target: "≥ 0.5",
        anchor: "run by run"))
  }

  /// The soft limit on open descriptors, raised to the hard limit first.
  static func raiseDescriptorLimit() -> Int {
    var limits = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1024 }
    if limits.rlim_cur < limits.rlim_max {
      limits.rlim_cur = limits.rlim_max
      _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
      _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
    }
    return Int(clamping: limits.rlim_cur)
  }

  /// `work` on a thread of its own (it blocks), awaited without blocking the caller's.
  static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
  }
}
