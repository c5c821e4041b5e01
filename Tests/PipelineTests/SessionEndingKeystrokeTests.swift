// A keystroke that ends its session: searched at once, never cancelled by the next line, which
// starts a session of its own under the same name. What `stream-search --each` sends per line.
import Pipeline
import Streams
import TestSupport
import Testing

@Suite struct SessionEndingKeystrokeTests {
  private func ending(_ term: String, session: String? = nil) -> Keystroke {
    Keystroke(term: term, atMilliseconds: nil, session: session, endsSession: true)
  }

  @Test func everyLineIsSearchedAtOnceAndAnsweredWithNoCancellation() throws {
    let run = RunningPipeline()
    run.runner.advance(to: .milliseconds(10))
    for term in ["queen", "abba", "queen", "adele"] { run.send(ending(term)) }
    #expect(run.log.lines == ["search queen@10", "search abba@10", "search queen@10", "search adele@10"])
    run.runner.advance(to: .milliseconds(1_000))
    let summary = try run.finish()
    // Answered as their loads end, not in input order (the second "queen" joins the first's
    // load): putting them back in input order is the output's job.
    #expect(
      Set(run.log.lines.dropLast().dropFirst(4)) == [
        "results queen load@411", "results abba load@411", "results queen joined@411", "results adele load@411",
      ])
    #expect(run.log.lines.count == 9)
    #expect(summary.cancellations == 0)
    #expect(summary.results == 4)
  }

  @Test func aKeystrokeThatEndsASessionSettlesWhatTheSessionWasTyping() throws {
    let run = RunningPipeline()
    run.send(Keystroke(term: "ta", atMilliseconds: nil, session: "a"))
    run.runner.advance(to: .milliseconds(100))
    run.send(ending("taylor", session: "a"))
    run.runner.advance(to: .milliseconds(200))
    run.send(Keystroke(term: "ad", atMilliseconds: nil, session: "a"))
    run.runner.advance(to: .milliseconds(2_000))
    _ = try run.finish()
    #expect(
      run.log.lines.dropLast() == [
        "[a] search taylor@100", "[a] search ad@500", "[a] results taylor load@501", "[a] results ad load@901",
      ])
  }

  @Test func aClearThatEndsItsSessionSearchesNothing() throws {
    let run = RunningPipeline()
    run.send(ending("  "))
    run.runner.advance(to: .milliseconds(1_000))
    let summary = try run.finish()
    #expect(run.log.lines.dropLast() == ["cleared@0"])
    #expect(summary.searches == 0)
  }
}
