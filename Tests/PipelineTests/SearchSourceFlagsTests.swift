// A source says two things apart: whether its answers are labelled `network` in events
// (isRemote), and whether a call waits on real I/O that a replay's runner must wait for
// (performsRealIO). A stub written the obvious way says neither and must not deadlock the runner;
// a stub standing in for a remote service is labelled `network` and still sleeps in virtual time;
// a source written against the deprecated `isNetwork` keeps its meaning for one release.
import ITunes
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

/// A stub standing in for a remote service: labelled `network`, its latency virtual.
struct RemoteStub: SearchSource {
  let clock: ManualClock
  var name: String { "remote-stub" }
  var isRemote: Bool { true }
  func search(_ request: SearchRequest) async throws -> [SearchItem] {
    try await clock.sleep(for: .milliseconds(120))
    return [SearchItem(id: 1, kind: "song", trackName: "Taylor Made", artistName: "Stub")]
  }
}

/// A source written before the flag was split: it says `isNetwork` only.
struct LegacyNetworkSource: SearchSource {
  var name: String { "legacy" }
  var isNetwork: Bool { true }
  func search(_ request: SearchRequest) async throws -> [SearchItem] { [] }
}

@Suite struct SearchSourceFlagsTests {
  @Test func onlyRealIOSaysItPerformsRealIOAndOnlyARemoteServiceIsRemote() {
    let stub = SlowStub(clock: ManualClock())
    #expect(stub.isRemote == false)
    #expect(stub.performsRealIO == false)
    let iTunes = ITunesSource(requestTimeout: .seconds(1))
    #expect(iTunes.isRemote == true)
    #expect(iTunes.performsRealIO == true)
    let remoteStub = RemoteStub(clock: ManualClock())
    #expect(remoteStub.isRemote == true)
    #expect(remoteStub.performsRealIO == false)
  }

  @Test func aSourceThatSaysTheDeprecatedIsNetworkIsRemoteAndPerformsRealIO() {
    let source: any SearchSource = LegacyNetworkSource()
    #expect(source.isRemote == true)
    #expect(source.performsRealIO == true)
  }

  @Test func aStubWithoutTheFlagsAnswersAfterItsLatencyInsteadOfDeadlocking() throws {
    let log = try Self.run(SlowStub.init)
    // Debounced for 300 ms, then every category answers after the stub's 120 ms.
    #expect(log.lines.dropLast() == ["search tay@300", "results tay load@420"])
  }

  @Test func aRemoteStubIsLabelledNetworkAndItsLatencyIsVirtual() throws {
    let log = try Self.run(RemoteStub.init)
    #expect(log.lines.dropLast() == ["search tay@300", "results tay load@420"])
    let origins = log.events.flatMap { event -> [ItemOrigin] in
      guard case .results(_, _, let categories, _) = event.kind else { return [] }
      return categories.compactMap { result in
        guard case .items(_, let origin) = result.outcome else { return nil }
        return origin
      }
    }
    #expect(!origins.isEmpty)
    #expect(origins.allSatisfy { $0 == .network })
  }

  /// The events of "tay" typed once, through an `AsyncStream` (the path of any sequence), over
  /// the source `make` builds on the runner's clock.
  static func run(_ make: (ManualClock) -> some SearchSource) throws -> EventLog {
    let runner = VirtualTimeRunner(watchdog: .seconds(10))
    let log = EventLog()
    let pipeline = SearchPipeline(
      configuration: PipelineConfiguration(), source: make(runner.clock), clock: runner.clock, sink: log.sink)
    let (inputs, input) = AsyncStream.makeStream(of: InputRecord.self)
    let task = runner.start { await pipeline.run(inputs) }
    input.yield(.keystroke(Keystroke(term: "tay", atMilliseconds: nil, session: nil), line: 1))
    runner.advance(to: .milliseconds(2_000))
    #expect(runner.interruption == nil)
    input.finish()
    _ = try runner.finish(task)
    return log
  }
}
