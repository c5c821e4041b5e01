import Streams
import StreamsTesting
import TestSupport
import Testing

// Every search ends in exactly one results, error or cancelled, whatever the input; and a run
// cancelled mid-search reports its open searches as cancelled for shutdown.
@testable import Pipeline

@Suite struct SearchLifecycleTests {
  static func randomKeys(seed: UInt64) -> [Key] {
    var random = SplitMix64(seed: seed)
    let texts = ["", "  ", "t", "ta", "tay", "Tay", "taylor", "zim", "zimmer", "s", "se", "serial", "x"]
    let sessions: [String?] = [nil, "a", "b"]
    var at: Int64 = 0
    return (0..<300).map { _ in
      at += Int64.random(in: 0...700, using: &random)
      return Key(at, texts.randomElement(using: &random) ?? "", session: sessions.randomElement(using: &random) ?? nil)
    }
  }

  @Test(arguments: 1...25 as ClosedRange<UInt64>)
  func everySearchEndsInExactlyOneTerminalEvent(seed: UInt64) async throws {
    try await OwnThread.running {
      var configuration = PipelineConfiguration()
      configuration.searchTimeout = .milliseconds(Int64(300 + seed * 20))
      configuration.progressive = seed % 2 == 0
      configuration.cacheCapacity = Int(seed % 4) * 3
      let latency = Duration.milliseconds(Int64(seed * 37 % 900))
      let (log, _) = try replay(Self.randomKeys(seed: seed), configuration: configuration, inputEndsAt: nil) {
        StubSource(latency: latency, clock: $0, failures: ["zim": .server(500), "movies:*": .rateLimited])
      }
      var open: [String: String] = [:]
      var searches = 0
      var terminals = 0
      for event in log.events {
        let session = event.session ?? ""
        switch event.kind {
        case .search(let term):
          #expect(open[session] == nil, "seed \(seed): a search started while \(open[session] ?? "") was open")
          open[session] = term
          searches += 1
        case .results(let term, _, _, _), .error(let term, _), .cancelled(let term, _):
          #expect(open[session] == term, "seed \(seed): \(EventLog.describe(event)) ends no open search")
          open[session] = nil
          terminals += 1
        case .partial(let term, _), .waiting(let term, _, _):
          #expect(open[session] == term, "seed \(seed): \(EventLog.describe(event)) for a search that is not open")
        case .cleared, .inputError, .summary:
          break
        }
      }
      #expect(open.isEmpty, "seed \(seed): searches never ended: \(open)")
      #expect(searches == terminals)
      #expect(searches > 0)
      guard case .summary(let summary) = log.events.last?.kind else {
        Issue.record("seed \(seed): the summary must come last")
        return
      }
      #expect(summary.searches == summary.results + summary.errors + summary.cancellations)
      #expect(log.events.map(\.seq) == Array(1...log.events.count))
    }
  }

  @Test func cancellingTheRunReportsOpenSearchesAsShutdownThenTheSummary() throws {
    let run = RunningPipeline { StubSource(latency: .seconds(5), clock: $0) }
    let (runner, source, log) = (run.runner, run.source, run.log)
    run.send(Keystroke(term: "taylor", atMilliseconds: nil, session: "a"))
    run.send(Keystroke(term: "serial", atMilliseconds: nil, session: "b"))
    runner.advance(to: .milliseconds(1_000))
    run.task.cancel()
    let summary = try runner.finish(run.task)
    #expect(
      log.lines == [
        "[a] search taylor@300", "[b] search serial@300", "[a] cancelled taylor shutdown@1000",
        "[b] cancelled serial shutdown@1000", "summary@1000",
      ])
    #expect(summary.cancellations == 2)
    #expect(source.cancelledRequests.count == 6)
    #expect(runner.clock.sleeperCount == 0)
  }

  @Test func badLinesBecomeInputErrorsAndTheRunGoesOn() throws {
    let run = RunningPipeline { StubSource(clock: $0) }
    run.send(.invalid(line: 1, reason: "invalid JSON"))
    run.send(Keystroke(term: "tay", atMilliseconds: nil, session: nil))
    let summary = try run.finish()
    #expect(run.log.lines == ["input_error 1@0", "search tay@0", "results tay load@0", "summary@0"])
    #expect(summary.inputLines == 2)
    #expect(summary.inputErrors == 1)
  }

  @Test func aBadLineFedAfterTheRunWasCancelledEmitsNothingAfterTheSummary() throws {
    let run = RunningPipeline()
    run.send(Keystroke(term: "tay"))
    run.task.cancel()
    run.runner.runUntilIdle()
    run.send(.invalid(line: 2, reason: "invalid JSON"))
    _ = try run.finish()
    #expect(run.log.lines.last?.hasPrefix("summary") == true, "\(run.log.lines)")
    #expect(!run.log.lines.contains { $0.hasPrefix("input_error") })
  }
}
