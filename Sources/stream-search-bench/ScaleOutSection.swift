// The "scaleout" section: the release binary's workers on a real redis-server on loopback.
// (a) publish → worker(s) → committed events, with one worker and with two: 12,000 people each
// typing at 5 keystrokes a second (200 ms apart, as people type), word after word, each word a
// session of its own, so 60,000 keystrokes/s are offered for 4 s, paced through a FIFO into
// `publish`. Their words are at different letters, so words end (and searches start) at an even
// pace, not all at once. The rate is the keystrokes over the time from the first one offered
// until every one is read and acknowledged (its search's end committed), less the debounce that
// the last keystroke waits by design. It can only come out below the offered rate, so the offer
// is above the 50,000/s target: a worker that keeps up scores a little under 60,000/s, one that
// falls behind what it managed. Then the Redis commands each
// keystroke costs and the CPU time it costs (worker, Redis and publish together: the figure that
// does not depend on what else the machine is doing). The same keystrokes all at once (a flood)
// give the figure without pacing; a worker flooded faster than it reads sees each session's
// keystrokes further apart than people type, so more of them become searches.
// (b) failover: from `kill -9` of one of two workers until the keystrokes typed into its sessions
// after the kill are answered. (c) a worker's memory per session above its catalog.
import Foundation
import RESP
import ScaleOut
import TestSupport

/// Measures the "scaleout" section.
struct ScaleOutSection {
  let options: BenchOptions
  static let section = "12 scale-out"
  static let shards = 16
  /// Sessions typed into at once in the flooded run of (a); each types the prefixes of one word.
  static let sessions = 10_000
  static let word = "bohemian r"
  /// Keystrokes offered per second in the paced runs of (a): 12,000 people typing at 5 a second.
  static let offeredRate = 60_000.0
  /// How long the paced runs of (a) offer keystrokes, in 200 ms ticks (4 s).
  static let offeredTicks = 20
  /// The workers' debounce (the default): the last keystroke waits this long by design.
  static let debounce = 0.3
  /// Sessions of the killed worker typed into after the kill in (b).
  static let failoverSessions = 50
  /// The most any wait of this section takes before it counts as a failure.
  static let patience = Duration.seconds(120)

  func measure(into table: inout ResultTable) async throws {
    guard let binary = BinarySection.binary(for: Self.section, into: &table) else { return }
    guard RedisServer.executable != nil else {
      table.append(
        ResultRow(section: Self.section, name: "redis-server", unit: "", sample: nil, note: RedisServer.skipNote))
      return
    }
    let server = try await RedisServer.start()
    defer { server.stop() }
    let tool = URL(fileURLWithPath: binary)
    var baseline: RedisBaseline?
    if RedisBaseline.tool.isAvailable {
      baseline = try await RedisBaseline.measure(server: server, cpu: Self.serverCPU)
      for row in baseline?.rows(section: Self.section) ?? [] { table.append(row) }
    } else {
      table.append(
        ResultRow(
          section: Self.section, name: "redis-benchmark", unit: "", sample: nil, note: RedisBaseline.tool.skipNote))
    }
    for workers in [1, 2] {
      try await throughput(
        tool, server: server, workers: workers, pace: Self.offeredRate, baseline: baseline, into: &table)
    }
    try await throughput(tool, server: server, workers: 1, pace: nil, baseline: nil, into: &table)
    try await failover(tool, server: server, into: &table)
    try await memory(tool, server: server, into: &table)
  }

  // MARK: (a) throughput

  func throughput(
    _ tool: URL, server: RedisServer, workers: Int, pace: Double?, baseline: RedisBaseline?,
    into table: inout ResultTable
  ) async throws {
    let lines = pace.map(Self.typing(at:)) ?? Self.flood()
    let keystrokes = lines.count
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("scaleout-\(getpid())")
    if pace == nil {
      try Data(lines.joined()).write(to: input)
    } else {
      guard mkfifo(input.path, 0o600) == 0 else { throw BenchmarkFailure(description: "cannot make a FIFO") }
    }
    defer { try? FileManager.default.removeItem(at: input) }

    var rates: [Double] = []
    var lags: [Double] = []
    var searchesPerKeystroke: [Double] = []
    var commandsPerKeystroke: [Double] = []
    var scriptsPerKeystroke: [Double] = []
    var cpuPerKeystroke: [Double] = []
    var cpuParts: [[Double]] = []
    let runs = max(1, min(options.runs, 3))
    for run in 0..<runs {
      let prefix = "bench-\(workers)w-\(pace == nil ? "flood" : "paced")-\(run)"
      let cluster = try Cluster(tool: tool, server: server, prefix: prefix)
      defer { cluster.stopAll() }
      for index in 0..<workers { try cluster.startWorker("w\(index)") }
      try await cluster.waitUntilBalanced(workers: workers)
      let connection = try cluster.connection()
      _ = try connection.call(RESPCommand("CONFIG", "RESETSTAT"))
      let serverCPU = try Self.serverCPU(connection)
      let workersCPU = cluster.workersCPU()
      let childrenCPU = ProcessCPU.reapedChildren()
      let clock = ContinuousClock()
      var started = clock.now
      let publish = try ToolProcess(
        tool, arguments: ["publish"] + cluster.redisArguments + ["--input", input.path])
      var offeredEnd = started
      if let pace {
        (started, offeredEnd) = try await Self.offer(lines, at: pace, into: input)
      }
      try await cluster.waitUntilAnswered(shards: Array(0..<Self.shards), atLeast: keystrokes)
      let answered = clock.now
      let seconds = nanoseconds(started.duration(to: answered)) / 1e9
      guard let exit = await publish.waitForExit(within: Self.patience), exit.status == 0 else {
        throw BenchmarkFailure(description: "publish failed: \(publish.errorLines.joined(separator: " | "))")
      }
      // publish has been reaped: the children's total grew by its CPU time alone.
      let parts = [
        cluster.workersCPU() - workersCPU, try Self.serverCPU(connection) - serverCPU,
        ProcessCPU.reapedChildren() - childrenCPU,
      ].map { $0 / Double(keystrokes) * 1e6 }
      cpuPerKeystroke.append(parts.reduce(0, +))
      cpuParts.append(parts)
      let stats = try Self.commandCalls(connection)
      if pace != nil {
        rates.append(Double(keystrokes) / max(seconds - Self.debounce, 1e-3))
        lags.append(nanoseconds(offeredEnd.duration(to: answered)) / 1e6)
      } else {
        rates.append(Double(keystrokes) / seconds)
      }
      searchesPerKeystroke.append(
        Double(try cluster.eventsAdded(shards: Array(0..<Self.shards))) / 2 / Double(keystrokes))
      commandsPerKeystroke.append(Double(stats.total) / Double(keystrokes))
      scriptsPerKeystroke.append(Double(stats.scripts) / Double(keystrokes))
    }
    let label = (workers == 1 ? "one worker" : "\(workers) workers") + (pace == nil ? ", flooded" : "")
    let workload = "\(keystrokes) keystrokes, \(Self.shards) shards, built-in catalog"
    if let pace {
      table.append(
        ResultRow(
          section: Self.section, name: "(a) publish → \(label) → events, loopback", unit: "keys/s",
          sample: Sample(rates), target: workers == 1 ? "≥ 50,000" : "",
          note:
            "\(workload): \(Int(pace) / 5) people typing \"\(Self.word)\" word after word at 5 keystrokes/s (a "
            + "session per word, words ending at an even pace), so \(Int(pace)) offered per second for "
            + "\(Self.offeredTicks / 5) s through a FIFO; keystrokes ÷ (first offered → all acknowledged − the "
            + "300 ms debounce), below the offered rate even for a worker that keeps up; \(runs) runs"))
      table.append(
        ResultRow(
          section: Self.section, name: "(a) last keystroke offered → all answered, \(label)", unit: "ms",
          sample: Sample(lags), note: "300 ms of it is the debounce; more means the worker fell behind"))
    } else {
      table.append(
        ResultRow(
          section: Self.section, name: "(a) publish → \(label) → events, loopback", unit: "keys/s",
          sample: Sample(rates),
          note:
            "\(workload), \(Self.sessions) sessions typing \"\(Self.word)\", all published at once; start of publish → all acknowledged; a worker reading slower "
            + "than people type sees their keystrokes further apart than the debounce: more searches; \(runs) runs"))
    }
    table.append(
      ResultRow(
        section: Self.section, name: "(a) searches per keystroke, \(label)", unit: "searches",
        sample: Sample(searchesPerKeystroke),
        note: "events committed ÷ 2 (a search and its end) ÷ keystrokes; one per session (0.1 flooded, 0.145 paced, "
          + "where people start and stop mid-word) when each session's keystrokes arrive closer together than "
          + "the debounce"))
    table.append(
      ResultRow(
        section: Self.section, name: "(a) Redis commands per keystroke, \(label)", unit: "commands",
        sample: Sample(commandsPerKeystroke),
        note: "INFO commandstats, calls inside scripts and transactions included, the benchmark's own polling excluded")
    )
    table.append(
      ResultRow(
        section: Self.section, name: "(a) script calls (EVALSHA) per keystroke, \(label)", unit: "calls",
        sample: Sample(scriptsPerKeystroke)))
    table.append(
      ResultRow(
        section: Self.section, name: "(a) CPU per keystroke: worker(s) + Redis + publish, \(label)", unit: "µs",
        sample: Sample(cpuPerKeystroke),
        note:
          "user + system time; medians: worker(s) \(Self.median(cpuParts.map { $0[0] })), Redis "
          + "\(Self.median(cpuParts.map { $0[1] })), publish \(Self.median(cpuParts.map { $0[2] })) µs; at 2 cores "
          + "free, 50,000 keystrokes/s needs ≤ 40 µs"))
    if let baseline, pace != nil {
      table.append(
        ResultRow(
          section: Self.section, name: "(a) paced keystrokes/s ÷ redis-benchmark XADD/s, \(label)", unit: "×",
          sample: Sample(rates.map { $0 / baseline.xaddsPerSecond }), target: workers == 1 ? "≥ 1.0" : "≥ 1.6",
          anchor: "same run",
          note: "capped at \(String(format: "%.2f", Self.offeredRate / baseline.xaddsPerSecond))× by the "
            + "\(Int(Self.offeredRate)) keystrokes/s offered"))
      table.append(
        ResultRow(
          section: Self.section, name: "(a) CPU per keystroke ÷ Redis CPU per XADD, \(label)", unit: "×",
          sample: Sample(cpuPerKeystroke.map { $0 / baseline.cpuPerXADD }), target: "≤ 2", anchor: "same run",
          note: "worker(s) + Redis + publish against what Redis spends on one unpipelined XADD"))
    }
  }

  /// The flooded run's keystrokes: every session's first letter, then every session's second…
  static func flood() -> [[UInt8]] {
    var lines: [[UInt8]] = []
    lines.reserveCapacity(sessions * word.count)
    for length in 1...word.count {
      let term = String(word.prefix(length))
      for session in 0..<sessions {
        lines.append(Array("{\"term\":\"\(term)\",\"session\":\"s\(session)\"}\n".utf8))
      }
    }
    return lines
  }

  /// The paced runs' keystrokes in the order they are offered: `rate ÷ 5` people each type one
  /// letter per 200 ms tick, word after word, each word a session of its own. Person `p` starts at
  /// letter `p mod 10` of a word, so a tenth of the people end a word at every tick. A word cut
  /// off by the last tick is not cut after its space: trimmed, that term equals the one before,
  /// so its keystroke would start no search and stay pending until its session is forgotten.
  static func typing(at rate: Double) -> [[UInt8]] {
    let people = Int(rate / 5)
    let letters = word.count
    let terms = (1...letters).map { String(word.prefix($0)) }
    var lines: [[UInt8]] = []
    lines.reserveCapacity(people * offeredTicks)
    for tick in 0..<offeredTicks {
      for person in 0..<people {
        let position = tick + person % letters
        if tick == offeredTicks - 1, terms[position % letters].last == " " { continue }
        let session = "p\(person)w\(position / letters)"
        lines.append(Array("{\"term\":\"\(terms[position % letters])\",\"session\":\"\(session)\"}\n".utf8))
      }
    }
    return lines
  }

  /// Writes `lines` into the FIFO `path` at `rate` lines a second, from the moment its reader
  /// opens it; returns when the first and the last line went out. Every wait is bounded by
  /// ``patience``: a `publish` that never opens the FIFO, stops reading it or dies is a failure,
  /// not a hang (the descriptor is non-blocking, and SIGPIPE is ignored so that a dead reader is
  /// a failed write).
  static func offer(_ lines: [[UInt8]], at rate: Double, into path: URL) async throws
    -> (first: ContinuousClock.Instant, last: ContinuousClock.Instant)
  {
    signal(SIGPIPE, SIG_IGN)
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: patience)
    var descriptor: Int32 = -1
    // Opening a FIFO without a reader fails at once (ENXIO) when non-blocking: tried until publish
    // has opened it.
    while descriptor < 0 {
      descriptor = open(path.path, O_WRONLY | O_NONBLOCK)
      if descriptor >= 0 { break }
      guard errno == ENXIO, clock.now < deadline else {
        throw BenchmarkFailure(description: "publish did not open its FIFO")
      }
      try await clock.sleep(for: .milliseconds(5))
    }
    defer { close(descriptor) }
    let first = clock.now
    var written = 0
    var pending: [UInt8] = []
    while written < lines.count || !pending.isEmpty {
      guard clock.now < deadline else { throw BenchmarkFailure(description: "publish stopped reading its FIFO") }
      let due = min(lines.count, Int(nanoseconds(first.duration(to: clock.now)) / 1e9 * rate) + 1)
      if due > written {
        pending += lines[written..<due].joined()
        written = due
      }
      let sent = pending.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return write(descriptor, base, buffer.count)
      }
      if sent > 0 {
        pending.removeFirst(sent)
      } else if sent < 0, errno != EAGAIN, errno != EINTR {
        throw BenchmarkFailure(description: "publish stopped reading its FIFO")
      }
      try await clock.sleep(for: .milliseconds(2))
    }
    return (first, clock.now)
  }

  static func median(_ values: [Double]) -> String {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return "?" }
    return String(format: "%.1f", sorted[sorted.count / 2])
  }

  /// The server's CPU time so far (user + system), in seconds.
  static func serverCPU(_ connection: RESPConnection) throws -> Double {
    let info = try connection.call(RESPCommand("INFO", "cpu")).string ?? ""
    var total = 0.0
    for line in info.split(whereSeparator: \.isNewline) {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0] == "used_cpu_user" || parts[0] == "used_cpu_sys" {
        total += Double(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
      }
    }
    return total
  }
}
