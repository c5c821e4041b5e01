// Observers hear what happened as values, in the order of the events for a search's life, with no
// lock of the pipeline's held: one that calls back into the pipeline does not trap.
import Pipeline
import Streams
import Synchronization
import TestSupport
import Testing

/// Keeps every observation, in the order told.
final class ObservationLog: PipelineObserver {
  private let storage = Mutex<[PipelineObservation]>([])
  var all: [PipelineObservation] { storage.withLock { $0 } }
  func observe(_ observation: PipelineObservation) { storage.withLock { $0.append(observation) } }
}

@Suite struct PipelineObserverTests {
  @Test func aSearchIsObservedFromKeystrokeToItsEnd() throws {
    let observed = ObservationLog()
    var configuration = PipelineConfiguration()
    configuration.categories = [.music]
    configuration.observers = [observed]
    _ = try replay(
      [Key(0, "ta"), Key(100, "tay"), Key(1_000, "tay"), Key(2_000, "t"), Key(2_100, "taylor")],
      configuration: configuration)
    #expect(
      observed.all == [
        .keystroke(session: nil), .keystroke(session: nil),
        .searchStarted(session: nil, term: "tay"),
        .requestSent(term: "tay", category: "music", source: "stub", remote: false),
        .searchFinished(session: nil, term: "tay", items: 2, elapsed: .milliseconds(401)),
        .keystroke(session: nil), .keystroke(session: nil), .keystroke(session: nil),
        .searchStarted(session: nil, term: "taylor"),
        .requestSent(term: "taylor", category: "music", source: "stub", remote: false),
        .searchFinished(session: nil, term: "taylor", items: 2, elapsed: .milliseconds(401)),
      ])
  }

  @Test func cancellationsFailuresAndCacheHitsAreObserved() throws {
    let observed = ObservationLog()
    var configuration = PipelineConfiguration()
    configuration.categories = [.music]
    configuration.observers = [observed]
    let keys = [Key(0, "tay"), Key(1_000, "bad"), Key(2_000, "tay"), Key(3_000, "x"), Key(3_400, "y")]
    _ = try replay(keys, configuration: configuration) {
      StubSource(latency: .milliseconds(401), clock: $0, failures: ["bad": .offline("down")])
    }
    let searchLife = observed.all.filter {
      if case .keystroke = $0 { return false }
      if case .requestSent = $0 { return false }
      return true
    }
    #expect(
      searchLife == [
        .searchStarted(session: nil, term: "tay"),
        .searchFinished(session: nil, term: "tay", items: 2, elapsed: .milliseconds(401)),
        .searchStarted(session: nil, term: "bad"),
        .searchFailed(session: nil, term: "bad", error: .offline("down")),
        .searchStarted(session: nil, term: "tay"),
        .cacheHit(term: "tay", category: "music"),
        .searchFinished(session: nil, term: "tay", items: 2, elapsed: .zero),
        .searchStarted(session: nil, term: "x"),
        .searchCancelled(session: nil, term: "x", reason: .superseded),
        .searchStarted(session: nil, term: "y"),
        .searchFinished(session: nil, term: "y", items: 2, elapsed: .milliseconds(401)),
      ])
  }

  @Test func anIdleSessionIsObservedAsForgotten() throws {
    let observed = ObservationLog()
    var configuration = PipelineConfiguration()
    configuration.sessionIdleTimeout = .seconds(2)
    configuration.observers = [observed]
    _ = try replay([Key(0, "tay", session: "a")], configuration: configuration, inputEndsAt: 10_000)
    #expect(observed.all.contains(.sessionForgotten("a")))
  }

  @Test func anObserverThatFeedsThePipelineAgainDoesNotTrap() throws {
    // Told with a lock held, the keystroke fed back would take the inlet's or the emitter's lock
    // again, and Mutex traps on that.
    let input = Mutex<AsyncFeed<InputRecord>?>(nil)
    var configuration = PipelineConfiguration()
    configuration.categories = [.music]
    configuration.observers = [
      ClosureObserver { observation in
        guard case .searchFinished(let session, _, _, _) = observation, session == "a" else { return }
        let feed = input.withLock { $0 }
        feed?.yield(.keystroke(Keystroke(term: "echo", atMilliseconds: nil, session: "b"), line: 99))
      }
    ]
    let run = RunningPipeline(configuration: configuration)
    input.withLock { $0 = run.input }
    run.send(Keystroke(term: "tay", atMilliseconds: nil, session: "a"))
    run.runner.advance(to: .milliseconds(2_000))
    let summary = try run.finish()
    #expect(run.log.lines.contains("[b] search echo@1001"))
    #expect(summary.searches == 2)
  }
}
