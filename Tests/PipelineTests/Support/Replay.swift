// Replays a few hand-written keystrokes through the pipeline in virtual time.
import Pipeline
import Streams

/// A keystroke for a test: the field's text at an instant, in a session.
struct Key {
  var at: Int64
  var text: String
  var session: String?

  init(_ at: Int64, _ text: String, session: String? = nil) {
    self.at = at
    self.text = text
    self.session = session
  }
}

/// Replays `keys` and returns the events, with the stub the source was.
func replay(
  _ keys: [Key], configuration: PipelineConfiguration = PipelineConfiguration(),
  source makeSource: @escaping @Sendable (ManualClock) -> StubSource = { StubSource(latency: .milliseconds(401), clock: $0) }
) throws -> (log: EventLog, source: StubSource) {
  let log = EventLog()
  let made = Box<StubSource>()
  var remaining = keys.enumerated().makeIterator()
  try ReplayDriver(configuration: configuration) { clock in
    let source = makeSource(clock)
    made.value = source
    return source
  }.run(sink: log.sink) {
    guard let (index, key) = remaining.next() else { return nil }
    return .keystroke(Keystroke(term: key.text, atMilliseconds: key.at, session: key.session), line: index + 1)
  }
  guard let source = made.value else { throw ReplayTestError.noSource }
  return (log, source)
}

enum ReplayTestError: Error { case noSource }

/// A box the replay's source factory fills in, read back after the run.
final class Box<Value: Sendable>: @unchecked Sendable {
  // Written once on the driving thread before any read: the runner runs everything there.
  var value: Value?
}
