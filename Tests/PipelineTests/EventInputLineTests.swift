// Every event names the input line it is about: the keystroke whose term was searched or
// cleared, so a program driving the pipeline can map each event back to its input.
import Pipeline
import Streams
import Testing

@Suite struct EventInputLineTests {
  /// "type term line" per event, the summary left out.
  private func described(_ log: EventLog) -> [String] {
    log.events.dropLast().map { event in
      "\(event.typeName) \(event.term ?? "-") \(event.inputLine.map(String.init) ?? "nil")"
    }
  }

  @Test func aSearchAndItsEndNameTheKeystrokeThatSettled() throws {
    let (log, _) = try replay([Key(0, "t"), Key(100, "ta"), Key(200, "tay")])
    #expect(described(log) == ["search tay 3", "results tay 3"])
  }

  @Test func aCancellationNamesTheCancelledSearchsKeystroke() throws {
    let (log, _) = try replay([Key(0, "tay"), Key(350, "tayl"), Key(400, "taylor"), Key(2_000, "")])
    #expect(
      described(log) == [
        "search tay 1", "cancelled tay 1", "search taylor 3", "results taylor 3", "cleared - 4",
      ])
  }

  @Test func waitingAndPartialNameTheirSearchsKeystroke() throws {
    var configuration = PipelineConfiguration()
    configuration.progressive = true
    configuration.categories = [.music, .movies]
    let (log, _) = try replay([Key(0, "a"), Key(10, "ab")], configuration: configuration)
    #expect(described(log) == ["search ab 2", "partial ab 2", "partial ab 2", "results ab 2"])
  }

  @Test func sessionsKeepTheirOwnLines() throws {
    let (log, _) = try replay([
      Key(0, "abc", session: "a"), Key(10, "xyz", session: "b"), Key(20, "abcd", session: "a"),
    ])
    let searches = log.events.filter { $0.typeName == "search" }.map { "\($0.session ?? "-") \($0.inputLine ?? 0)" }
    #expect(searches.sorted() == ["a 3", "b 2"])
  }

  @Test func aBadLineNamesItself() throws {
    let run = RunningPipeline()
    run.send(.invalid(line: 7, reason: "invalid JSON"))
    _ = try run.finish()
    #expect(run.log.events.first?.inputLine == 7)
    #expect(run.log.events.last?.inputLine == nil, "the summary is about no line")
  }

  @Test func aShutdownCancellationNamesTheOpenSearchsKeystroke() throws {
    let run = RunningPipeline()
    run.send(Keystroke(term: "taylor"))
    run.runner.advance(to: .milliseconds(350))
    run.task.cancel()
    run.runner.runUntilIdle()
    let cancelled = run.log.events.first { $0.typeName == "cancelled" }
    #expect(cancelled?.inputLine == 1)
  }
}
