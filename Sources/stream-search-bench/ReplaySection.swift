// Section 2: the whole pipeline replayed in process (ReplayDriver, virtual time) on the
// 200,000-keystroke recording, CatalogSource with 80 ms simulated latency on the replay's clock,
// music/movies/podcasts, limit 10.
import Pipeline
import Streams
import Synchronization

/// Measures section 2.
struct ReplaySection {
  let options: BenchOptions
  let stopwatch: Stopwatch

  func measure(into table: inout ResultTable) async throws {
    let lines: [Substring]
    switch TraceFile.lines(options: options) {
    case .success(let read): lines = read
    case .failure(let failure):
      table.append(ResultRow(section: "2 replay", name: "replay", unit: "keystrokes/s", sample: nil,
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
    table.append(ResultRow(section: "2 replay", name: "InputLineParser.parse alone", unit: "lines/s",
      sample: parse.inverted { 1e9 / $0 }))
    for encode in [false, true] {
      var shape = ""
      let sample = try await stopwatch.nanosecondsPerUnit(
        meter: .wall, size: lines.count, warmUpSize: lines.count, units: count
      ) { _ in
        let (summary, events) = try Self.replay(lines, encode: encode)
        shape = [(summary.searches, "searches"), (summary.requests, "requests"), (events, "events")]
          .map { "\(String($0).withThousandsSeparators) \($1)" }.joined(separator: ", ")
      }
      table.append(ResultRow(
        section: "2 replay",
        name: encode ? "(ii) replay, every event encoded to JSON Lines" : "(i) replay, events counted",
        unit: "keystrokes/s", sample: sample.inverted { 1e9 / $0 },
        target: encode ? "" : "≥ 2,000,000", anchor: encode ? "" : "RxPY ≈ 60,000",
        note: "\(shape); parse and catalog index build included"))
    }
  }

  /// Replays `lines` once; returns the summary and how many events the sink received.
  static func replay(_ lines: [Substring], encode: Bool) throws -> (RunSummary, Int) {
    var configuration = PipelineConfiguration()
    configuration.categories = [.music, .movies, .podcasts]
    configuration.limit = 10
    let sink = EventSink(encode: encode)
    var index = 0
    let summary = try ReplayDriver(configuration: configuration) { clock in
      // The built-in catalog as the binary uses it (compact records); building it is part of
      // every run, as it is of every run of the binary.
      CatalogSource(latency: .milliseconds(80), clock: clock)
    }.run(sink: sink.receive) {
      guard index < lines.count else { return nil }
      defer { index += 1 }
      return InputLineParser.parse(String(lines[index]), line: index + 1)
    }
    try check("replayed input lines", summary.inputLines, equals: lines.count)
    // Every search is followed by its results, error or cancellation, and the summary comes last.
    guard sink.count > 2 * summary.searches else {
      throw BenchmarkFailure(description: "\(sink.count) events for \(summary.searches) searches")
    }
    return (summary, sink.count)
  }
}

/// Counts events and, when asked, encodes each into a buffer that is thrown away.
final class EventSink: Sendable {
  private let encode: Bool
  private let state = Mutex((count: 0, buffer: [UInt8]()))

  init(encode: Bool) { self.encode = encode }

  var count: Int { state.withLock { $0.count } }

  @Sendable func receive(_ event: SearchEvent) {
    state.withLock { state in
      state.count += 1
      guard encode else { return }
      JSONLinesEncoder().encode(event, into: &state.buffer)
      if state.buffer.count > 1 << 16 { state.buffer.removeAll(keepingCapacity: true) }
    }
  }
}
