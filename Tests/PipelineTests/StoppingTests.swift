// Stopping a run (a signal, or the output closing): every search still open ends `cancelled`
// for `shutdown`, even one whose answer arrives while the sessions are being stopped one by one
// (a request ended by another search's cancellation, for instance). The emitter's rule, and the
// pipeline that applies it.
import Streams
import Testing

@testable import Pipeline

@Suite struct StoppingTests {
  @Test func answersArrivingOnceTheRunStopsAreDroppedAndTheirSearchesEndAsShutdown() async {
    let log = EventLog()
    let emitter = EventEmitter(clock: ManualClock(), sink: log.sink)
    emitter.emit(.search(term: "taylor"), session: "a")
    emitter.emit(.search(term: "serial"), session: "b")
    emitter.stop()
    emitter.emit(.error(term: "taylor", error: .offline("connection dropped")), session: "a")
    emitter.emit(
      .partial(term: "serial", category: CategoryResult(category: .music, outcome: .failed(.timedOut))), session: "b")
    emitter.cancelOpenSearches()
    _ = await emitter.emitSummary(inputLines: 0, requests: 0, cacheHits: 0, disk: nil)
    #expect(
      log.lines == [
        "[a] search taylor@0", "[b] search serial@0", "[a] cancelled taylor shutdown@0",
        "[b] cancelled serial shutdown@0", "summary@0",
      ])
  }

  @Test func beforeTheStopAnAnswerEndsItsSearchAsUsual() {
    let log = EventLog()
    let emitter = EventEmitter(clock: ManualClock(), sink: log.sink)
    emitter.emit(.search(term: "taylor"), session: "a")
    emitter.emit(.error(term: "taylor", error: .offline("connection dropped")), session: "a")
    emitter.stop()
    emitter.cancelOpenSearches()
    #expect(log.lines == ["[a] search taylor@0", "[a] error taylor offline@0"])
  }
}
