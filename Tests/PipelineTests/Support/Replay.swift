// Runs the pipeline in virtual time over a few hand-written keystrokes: `RunningPipeline` for tests
// that look between keystrokes, `replay` for tests that only look at the end.
import Pipeline
import Streams
import Synchronization
import TestSupport

/// A keystroke for a test: the field's text at an instant, in a session.
typealias Key = RecordedKey

/// A pipeline started on its own runner, reading what the test yields to `input`, its events in
/// `log`. Nothing runs until the test drives `runner`.
struct RunningPipeline {
  let runner = VirtualTimeRunner()
  let source: StubSource
  let log = EventLog()
  /// The pipeline's input, pushed from the test's thread as a replay's driver pushes it.
  let input = AsyncFeed<InputRecord>()
  let task: VirtualTask<RunSummary>
  private let lines = LineCounter()

  init(
    configuration: PipelineConfiguration = PipelineConfiguration(),
    source makeSource: (ManualClock) -> StubSource = { StubSource(latency: .milliseconds(401), clock: $0) }
  ) {
    source = makeSource(runner.clock)
    let pipeline = SearchPipeline(configuration: configuration, source: source, clock: runner.clock, sink: log.sink)
    task = runner.start { [input] in await pipeline.run(input) }
    runner.runUntilIdle()
  }

  /// Feeds `keystroke` as the next input line, on this thread, as a replay does.
  func send(_ keystroke: Keystroke) {
    send(.keystroke(keystroke, line: lines.next()))
  }

  /// Feeds `record` as it is (its line number included).
  func send(_ record: InputRecord) {
    runner.onRunner { input.yield(record) }
  }

  /// Ends the input and runs until the pipeline returns its summary.
  func finish() throws -> RunSummary {
    runner.onRunner { input.finish() }
    return try runner.finish(task)
  }
}

/// Feeds `keys` at their instants, keeps the input open until `inputEndsAt` (by default 10 s
/// after the last key, so every search settles on its own), then ends it and runs to the end.
/// Returns the events and the stub source.
func replay(
  _ keys: [Key], configuration: PipelineConfiguration = PipelineConfiguration(), inputEndsAt: Int64? = nil,
  source makeSource: (ManualClock) -> StubSource = { StubSource(latency: .milliseconds(401), clock: $0) }
) throws -> (log: EventLog, source: StubSource) {
  let run = RunningPipeline(configuration: configuration, source: makeSource)
  for key in keys {
    run.runner.advance(to: .milliseconds(key.at))
    run.send(Keystroke(term: key.text, atMilliseconds: key.at, session: key.session))
  }
  run.runner.advance(to: .milliseconds(inputEndsAt ?? ((keys.last?.at ?? 0) + 10_000)))
  _ = try run.finish()
  return (run.log, run.source)
}

/// Numbers the lines a test feeds.
final class LineCounter: Sendable {
  private let last = Mutex(0)

  func next() -> Int {
    last.withLock { last in
      last += 1
      return last
    }
  }
}
