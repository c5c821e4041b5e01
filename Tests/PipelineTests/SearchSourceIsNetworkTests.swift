// A stub written the obvious way (no isNetwork) must not deadlock the runner: the flag defaults
// to false, and only real I/O says true. The stub is SearchSource's doc example.
import Pipeline
import Streams
import TestSupport
import Testing

/// SearchSource's doc example, word for word.
struct SlowStub: SearchSource {
  let clock: ManualClock
  var name: String { "stub" }
  func search(_ request: SearchRequest) async throws -> [SearchItem] {
    try await clock.sleep(for: .milliseconds(120))
    return []
  }
}

@Suite struct SearchSourceIsNetworkTests {
  @Test func onlyRealIOSaysItIsNetwork() {
    #expect(SlowStub(clock: ManualClock()).isNetwork == false)
    #expect(ITunesSource(requestTimeout: .seconds(1)).isNetwork == true)
  }

  @Test func aStubWithoutTheFlagAnswersAfterItsLatencyInsteadOfDeadlocking() throws {
    let runner = VirtualTimeRunner(watchdog: .seconds(10))
    let log = EventLog()
    let pipeline = SearchPipeline(
      configuration: PipelineConfiguration(), source: SlowStub(clock: runner.clock), clock: runner.clock,
      sink: log.sink)
    // An AsyncStream, not a feed: the pipeline's task iterates it (the path of any sequence).
    let (inputs, input) = AsyncStream.makeStream(of: InputRecord.self)
    let task = runner.start { await pipeline.run(inputs) }
    input.yield(.keystroke(Keystroke(term: "tay", atMilliseconds: nil, session: nil), line: 1))
    runner.advance(to: .milliseconds(2_000))
    #expect(runner.interruption == nil)
    input.finish()
    _ = try runner.finish(task)
    // Debounced for 300 ms, then every category answers after the stub's 120 ms.
    #expect(log.lines.dropLast() == ["search tay@300", "results tay load@420"])
  }
}
