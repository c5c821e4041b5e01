// Runs the pipeline in virtual time over a few hand-written keystrokes: `RunningPipeline` for tests
// that look between keystrokes, `replay` for tests that only look at the end.
import Pipeline
import Streams
import TestSupport

/// A keystroke for a test: the field's text at an instant, in a session.
typealias Key = RecordedKey

/// A pipeline started on its own runner, reading what the test yields to `input`, its events in
/// `log`. Nothing runs until the test drives `runner`.
struct RunningPipeline {
  let runner = VirtualTimeRunner()
  let source: StubSource
  let log = EventLog()
  let input: AsyncStream<PipelineInput>.Continuation
  let task: VirtualTask<RunSummary>

  init(
    configuration: PipelineConfiguration = PipelineConfiguration(),
    source makeSource: (ManualClock) -> StubSource = { StubSource(latency: .milliseconds(401), clock: $0) }
  ) {
    source = makeSource(runner.clock)
    let pipeline = SearchPipeline(configuration: configuration, source: source, clock: runner.clock, sink: log.sink)
    let (inputs, input) = AsyncStream.makeStream(of: PipelineInput.self)
    self.input = input
    task = runner.start { await pipeline.run(inputs) }
  }

  /// Ends the input and runs until the pipeline returns its summary.
  func finish() throws -> RunSummary {
    input.finish()
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
    run.input.yield(.keystroke(Keystroke(term: key.text, atMilliseconds: key.at, session: key.session)))
  }
  run.runner.advance(to: .milliseconds(inputEndsAt ?? ((keys.last?.at ?? 0) + 10_000)))
  _ = try run.finish()
  return (run.log, run.source)
}
