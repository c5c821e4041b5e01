// Replays a few hand-written keystrokes through the pipeline in virtual time.
import Pipeline
import Streams
import TestSupport

/// A keystroke for a test: the field's text at an instant, in a session.
typealias Key = RecordedKey

/// Feeds `keys` at their instants, keeps the input open until `inputEndsAt` (by default 10 s
/// after the last key, so every search settles on its own), then ends it and runs to the end.
/// Returns the events and the stub source.
func replay(
  _ keys: [Key], configuration: PipelineConfiguration = PipelineConfiguration(), inputEndsAt: Int64? = nil,
  source makeSource: (ManualClock) -> StubSource = { StubSource(latency: .milliseconds(401), clock: $0) }
) throws -> (log: EventLog, source: StubSource) {
  let runner = VirtualTimeRunner()
  let source = makeSource(runner.clock)
  let log = EventLog()
  let pipeline = SearchPipeline(configuration: configuration, source: source, clock: runner.clock, sink: log.sink)
  let (inputs, feed) = AsyncStream.makeStream(of: PipelineInput.self)
  let task = runner.start { await pipeline.run(inputs) }
  for key in keys {
    runner.advance(to: .milliseconds(key.at))
    feed.yield(.keystroke(Keystroke(term: key.text, atMilliseconds: key.at, session: key.session)))
  }
  runner.advance(to: .milliseconds(inputEndsAt ?? ((keys.last?.at ?? 0) + 10_000)))
  feed.finish()
  _ = try runner.finish(task)
  return (log, source)
}
