// The channel between a line reader's thread and its consumer: bounded, in order, and a reader
// blocked on a full buffer woken once half of it is free, not at every batch taken.
import Testing

@testable import LineIO

struct LineBatchChannelStateMachineTests {
  typealias Machine = LineBatchChannelStateMachine<Int>

  /// Receives the next batch, and whether the reader is to be woken; nil when the consumer
  /// would wait or the input is over.
  static func received(_ machine: inout Machine) -> (batch: [Int], wakeReader: Bool)? {
    guard case .deliver(.success(let batch?), let wakeReader) = machine.receive(orInstall: nil) else { return nil }
    return (batch, wakeReader)
  }

  @Test func aReaderBlockedOnAFullBufferIsWokenOnceHalfOfItIsFree() {
    var machine = Machine(capacity: 4)
    for batch in 1...4 {
      guard case .buffered = machine.send([batch]) else {
        Issue.record("batch \(batch) should be buffered")
        return
      }
    }
    guard case .blockReader = machine.send([5]) else {
      Issue.record("a full buffer should block the reader")
      return
    }
    let first = Self.received(&machine)
    #expect(first?.batch == [1])
    #expect(first?.wakeReader == false, "three of four still wait")
    let second = Self.received(&machine)
    #expect(second?.batch == [2])
    #expect(second?.wakeReader == true, "half the buffer is free")
    guard case .buffered = machine.send([5]) else {
      Issue.record("the woken reader's batch should be buffered")
      return
    }
    #expect(Self.received(&machine)?.wakeReader == false, "nobody is blocked any more")
    #expect(Self.received(&machine)?.batch == [4])
    #expect(Self.received(&machine)?.batch == [5])
  }

  @Test func aChannelOfOneOrTwoBatchesWakesTheReaderAtTheFirstBatchTaken() {
    for capacity in 1...2 {
      var machine = Machine(capacity: capacity)
      for batch in 0..<capacity { _ = machine.send([batch]) }
      guard case .blockReader = machine.send([capacity]) else {
        Issue.record("a full buffer should block the reader")
        return
      }
      #expect(Self.received(&machine)?.wakeReader == true, "capacity \(capacity)")
    }
  }

  @Test func cancellingWakesAReaderStillWaitingForHalfTheBuffer() {
    var machine = Machine(capacity: 4)
    for batch in 1...4 { _ = machine.send([batch]) }
    _ = machine.send([5])
    _ = Self.received(&machine)
    guard case .stop(let consumer, let wakeReader) = machine.cancel() else {
      Issue.record("cancelling a reading channel should stop it")
      return
    }
    #expect(consumer == nil)
    #expect(wakeReader == true)
  }
}
