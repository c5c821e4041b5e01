// The emitter calls its sink with no lock held: a sink may call back in (as a failed write
// stops the run, which stops the emitter), and events from many threads still reach the sink
// one call at a time, in seq order.
import Dispatch
import Streams
import Synchronization
import Testing

@testable import Pipeline

@Suite struct EventEmitterDeliveryTests {
  /// A sink that calls back into the emitter from inside its first call.
  private final class CallingBack: Sendable {
    let log = EventLog()
    let emitter = Mutex<EventEmitter<ManualClock>?>(nil)

    var sink: @Sendable (SearchEvent) -> Void {
      { [self] event in
        log.sink(event)
        guard case .search = event.kind, let emitter = emitter.withLock({ $0 }) else { return }
        // What a failed write does: stop the run, whose searches then end as shutdown.
        emitter.stop()
        emitter.emit(.results(term: "late", source: .load, categories: [], elapsedMilliseconds: 0), session: "a")
        emitter.cancelOpenSearches()
      }
    }
  }

  @Test func aSinkThatCallsBackInIsGivenWhatItEmitsAfterItReturns() async {
    let callingBack = CallingBack()
    let emitter = EventEmitter(clock: ManualClock(), sink: callingBack.sink)
    callingBack.emitter.withLock { $0 = emitter }
    emitter.emit(.search(term: "taylor"), session: "a")
    _ = await emitter.emitSummary(inputLines: 0, requests: 0, cacheHits: 0, disk: nil)
    #expect(callingBack.log.lines == ["[a] search taylor@0", "[a] cancelled taylor shutdown@0", "summary@0"])
    #expect(callingBack.log.events.map(\.seq) == [1, 2, 3])
  }

  @Test func eventsFromManyThreadsReachTheSinkOneAtATimeInSeqOrder() async {
    let inSink = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let log = EventLog()
    let emitter = EventEmitter(clock: ContinuousClock()) { event in
      if inSink.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
      log.sink(event)
      inSink.subtract(1, ordering: .acquiringAndReleasing)
    }
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<500 { emitter.emit(.search(term: "t\(index)"), session: "s\(thread)") }
    }
    _ = await emitter.emitSummary(inputLines: 0, requests: 0, cacheHits: 0, disk: nil)
    let events = log.events
    #expect(overlaps.load(ordering: .relaxed) == 0)
    #expect(events.map(\.seq) == Array(1...4_001))
    #expect(zip(events, events.dropFirst()).allSatisfy { $0.atMilliseconds <= $1.atMilliseconds })
    #expect(events.last.map(EventLog.describe)?.hasPrefix("summary@") == true)
  }
}
