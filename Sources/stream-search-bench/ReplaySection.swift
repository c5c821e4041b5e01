// The "replay" section: the whole pipeline replayed in process (ReplayDriver, virtual time) on the
// 200,000-keystroke recording, CatalogSource with 80 ms simulated latency on the replay's clock,
// music/movies/podcasts, limit 10.
import Catalog
import Pipeline
import Streams
import Synchronization

/// Measures the "replay" section.
struct ReplaySection {
  let options: BenchOptions
  let stopwatch: Stopwatch

  func measure(into table: inout ResultTable) async throws {
    let lines: [Substring]
    switch TraceFile.lines(options: options) {
    case .success(let read): lines = read
    case .failure(let failure):
      table.append(
        ResultRow(
          section: "2 replay", name: "replay", unit: "keystrokes/s", sample: nil,
          note: "skipped: \(failure.description)"))
      return
    }
    let count = Double(lines.count)
    let parse = try await stopwatch.nanosecondsPerUnit(
      meter: .wall, size: lines.count, warmUpSize: lines.count, units: count
    ) { _ in
      var keystrokes = 0
      for (index, line) in lines.enumerated() {
        if case .keystroke = InputLineParser.parse(String(line), line: index + 1) { keystrokes += 1 }
      }
      try check("parsed keystrokes", keystrokes, equals: lines.count)
    }
    table.append(
      ResultRow(
        section: "2 replay", name: "InputLineParser.parse alone", unit: "lines/s",
        sample: parse.inverted { 1e9 / $0 }))
    for encode in [false, true] {
      var shape = ""
      let sample = try await stopwatch.nanosecondsPerUnit(
        meter: .wall, size: lines.count, warmUpSize: lines.count, units: count
      ) { _ in
        let run = try Self.replay(lines, encode: encode, latency: .milliseconds(80))
        shape = [(run.summary.searches, "searches"), (run.summary.requests, "requests"), (run.events, "events")]
          .map { "\(String($0).withThousandsSeparators) \($1)" }.joined(separator: ", ")
      }
      table.append(
        ResultRow(
          section: "2 replay",
          name: encode ? "(ii) replay, every event encoded to JSON Lines" : "(i) replay, events counted",
          unit: "keystrokes/s", sample: sample.inverted { 1e9 / $0 },
          target: encode ? "" : "≥ 2,000,000", anchor: encode ? "" : "RxPY ≈ 60,000",
          note: "\(shape); 80 ms latency; parse and catalog index build included"))
    }
    // The binary's defaults (latency 0): what a search costs when nothing waits, and the jobs.
    var jobs = 0
    var loaded = 0
    let atDefaults = try await stopwatch.nanosecondsPerUnit(
      meter: .wall, size: lines.count, warmUpSize: lines.count, units: count
    ) { _ in
      let run = try Self.replay(lines, encode: true, latency: .zero)
      jobs = run.jobs
      loaded = run.loadedSearches
    }
    table.append(
      ResultRow(
        section: "2 replay", name: "(iii) replay at the binary's defaults (latency 0), encoded",
        unit: "keystrokes/s", sample: atDefaults.inverted { 1e9 / $0 }, target: "≥ 1,000,000",
        note: "\(String(loaded).withThousandsSeparators) searches loaded; parse and catalog index build included"))
    table.append(
      ResultRow(
        section: "2 replay", name: "(iii) executor jobs per keystroke", unit: "jobs",
        sample: Sample([Double(jobs) / count]), target: "≤ 0.2",
        note:
          "\(String(jobs).withThousandsSeparators) jobs for \(String(lines.count).withThousandsSeparators) keystrokes"))
    let slow = try Self.replay(lines, encode: true, latency: .milliseconds(80))
    table.append(
      ResultRow(
        section: "2 replay", name: "(iv) executor jobs per loaded search, 80 ms latency",
        unit: "jobs", sample: Sample([Double(slow.jobs) / Double(max(slow.loadedSearches, 1))]), target: "≤ 8",
        note: "\(String(slow.jobs).withThousandsSeparators) jobs, "
          + "\(String(slow.loadedSearches).withThousandsSeparators) searches loaded"))
  }

  /// What one replay gave.
  struct Run {
    var summary: RunSummary
    var events: Int
    /// Executor jobs the runner ran.
    var jobs: Int
    /// Searches answered with source `load` (a request was sent for them).
    var loadedSearches: Int
  }

  /// Replays `lines` once with the catalog answering after `latency`.
  static func replay(_ lines: [Substring], encode: Bool, latency: Duration) throws -> Run {
    var configuration = PipelineConfiguration()
    configuration.categories = [.music, .movies, .podcasts]
    configuration.limit = 10
    let sink = EventSink(encode: encode)
    var index = 0
    var jobs = 0
    let summary = try ReplayDriver(configuration: configuration) { clock in
      // The built-in catalog as the binary uses it (compact records); building it is part of
      // every run, as it is of every run of the binary.
      CatalogSource(latency: latency, clock: clock)
    }.run(sink: sink.receive, jobCount: { jobs = $0 }) {
      guard index < lines.count else { return nil }
      defer { index += 1 }
      return InputLineParser.parse(String(lines[index]), line: index + 1)
    }
    try check("replayed input lines", summary.inputLines, equals: lines.count)
    // Every search is followed by its results, error or cancellation, and the summary comes last.
    guard sink.count > 2 * summary.searches else {
      throw BenchmarkFailure(description: "\(sink.count) events for \(summary.searches) searches")
    }
    return Run(summary: summary, events: sink.count, jobs: jobs, loadedSearches: sink.loaded)
  }
}

/// Counts events and, when asked, encodes each into a buffer that is thrown away.
final class EventSink: Sendable {
  private let encode: Bool
  private let state = Mutex((count: 0, loaded: 0, buffer: [UInt8]()))

  init(encode: Bool) { self.encode = encode }

  var count: Int { state.withLock { $0.count } }

  /// Results whose source is `load`.
  var loaded: Int { state.withLock { $0.loaded } }

  @Sendable func receive(_ event: SearchEvent) {
    state.withLock { state in
      state.count += 1
      if case .results(_, .load, _, _) = event.kind { state.loaded += 1 }
      guard encode else { return }
      JSONLinesEncoder().encode(event, into: &state.buffer)
      if state.buffer.count > 1 << 16 { state.buffer.removeAll(keepingCapacity: true) }
    }
  }
}
