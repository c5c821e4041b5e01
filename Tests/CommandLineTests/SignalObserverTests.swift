// SignalObserver with real signals sent to this test process: each arrives on the stream, in
// order, and a later observer still works after an earlier one is cancelled.
//
// Serialized: an observer receives every signal sent to the process, so two of these tests at
// once would see each other's signals. No other suite sends signals.
import Foundation
import Testing

@testable import stream_search

@Suite(.serialized) struct SignalObserverTests {
  @Test func deliversEachSignalInsteadOfDying() async {
    let observer = SignalObserver()
    var signals = observer.signals.makeAsyncIterator()
    kill(getpid(), SIGTERM)
    #expect(await signals.next() == .terminate)
    kill(getpid(), SIGINT)
    #expect(await signals.next() == .interrupt)
    observer.cancel()
    #expect(await signals.next() == nil)
  }

  @Test func aNewObserverWorksAfterAnEarlierOneWasCancelled() async {
    SignalObserver([.interrupt]).cancel()
    let observer = SignalObserver([.interrupt])
    var signals = observer.signals.makeAsyncIterator()
    kill(getpid(), SIGINT)
    #expect(await signals.next() == .interrupt)
    observer.cancel()
  }

  @Test func exitStatusIs128PlusTheSignalNumber() {
    #expect(TerminationSignal.interrupt.exitStatus.rawValue == 128 + SIGINT)
    #expect(TerminationSignal.terminate.exitStatus.rawValue == 128 + SIGTERM)
  }
}
