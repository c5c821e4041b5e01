// The hand-off between the threads that produce events and the output's writer thread: bounded,
// in order, prompt live, batched in a replay, and every waiter released when the output closes.
import Testing

@testable import stream_search

struct EventHandOffStateMachineTests {
  /// Takes what the writer thread would write next, or nil if it would sleep or exit.
  static func taken(_ machine: inout EventHandOffStateMachine<Int>) -> (events: [Int], wake: Int)? {
    guard case .write(let events, let wake) = machine.take() else { return nil }
    return (events, wake)
  }

  @Test func aFullQueueMakesTheProducerWaitAndTheWriterWakesIt() {
    var machine = EventHandOffStateMachine<Int>(capacity: 3, wakeAt: 1)
    #expect(machine.enqueue(1) == .startWriter)
    #expect(machine.enqueue(2) == .queued)
    #expect(machine.enqueue(3) == .queued)
    #expect(machine.enqueue(4) == .waitForRoom)
    let first = Self.taken(&machine)
    #expect(first?.events == [1, 2, 3])
    #expect(first?.wake == 1)
    #expect(machine.enqueue(4) == .queued)
    #expect(Self.taken(&machine)?.events == [4])
  }

  @Test func liveEveryEventWakesASleepingWriter() {
    var machine = EventHandOffStateMachine<Int>(capacity: 8, wakeAt: 1)
    #expect(machine.enqueue(1) == .startWriter)
    #expect(Self.taken(&machine)?.events == [1])
    guard case .sleep = machine.take() else {
      Issue.record("an empty queue should put the writer to sleep")
      return
    }
    #expect(machine.enqueue(2) == .wakeWriter)
    #expect(Self.taken(&machine)?.events == [2])
  }

  @Test func aReplayWakesTheWriterForAFullBatchOrAFlush() {
    var machine = EventHandOffStateMachine<Int>(capacity: 8, wakeAt: 3)
    #expect(machine.enqueue(1) == .startWriter)
    _ = Self.taken(&machine)
    _ = machine.take()  // Asleep.
    #expect(machine.enqueue(2) == .queued)
    #expect(machine.enqueue(3) == .queued)
    #expect(machine.enqueue(4) == .wakeWriter)
    #expect(Self.taken(&machine)?.events == [2, 3, 4])
    _ = machine.take()
    #expect(machine.flush() == false, "nothing to flush")
    #expect(machine.enqueue(5) == .queued)
    #expect(machine.flush() == true)
    #expect(Self.taken(&machine)?.events == [5])
  }

  @Test func aReplayWriterLeavesLessThanABatchQueuedUntilTheBatchFillsOrAFlush() {
    var machine = EventHandOffStateMachine<Int>(capacity: 8, wakeAt: 3)
    _ = machine.enqueue(1)
    _ = Self.taken(&machine)
    _ = machine.take()  // Asleep.
    for event in 2...4 { _ = machine.enqueue(event) }
    #expect(Self.taken(&machine)?.events == [2, 3, 4])
    // Two events came while it wrote: too few to write on their own.
    _ = machine.enqueue(5)
    _ = machine.enqueue(6)
    guard case .sleep = machine.take() else {
      Issue.record("fewer events than a batch should wait, the writer asleep")
      return
    }
    #expect(machine.enqueue(7) == .wakeWriter)
    #expect(Self.taken(&machine)?.events == [5, 6, 7])
    // A flush while the writer is awake: what is queued is written before it sleeps.
    _ = machine.enqueue(8)
    #expect(machine.flush() == false, "the writer is awake: nothing to wake")
    #expect(Self.taken(&machine)?.events == [8])
    guard case .sleep = machine.take() else {
      Issue.record("an empty queue should put the writer to sleep")
      return
    }
  }

  @Test func finishingWritesWhatIsQueuedThenStopsTheWriter() {
    var machine = EventHandOffStateMachine<Int>(capacity: 8, wakeAt: 3)
    #expect(machine.finish() == .done, "no event, no writer thread")
    var started = EventHandOffStateMachine<Int>(capacity: 8, wakeAt: 3)
    _ = started.enqueue(1)
    _ = Self.taken(&started)
    _ = started.take()  // Asleep.
    _ = started.enqueue(2)
    #expect(started.finish() == .waitForWriter(wake: true))
    #expect(Self.taken(&started)?.events == [2])
    guard case .exit = started.take() else {
      Issue.record("the writer should stop once the queue is written")
      return
    }
    #expect(started.enqueue(3) == .drop)
  }

  @Test func aClosedOutputReleasesWaitingProducersAndDropsLaterEvents() {
    var machine = EventHandOffStateMachine<Int>(capacity: 1, wakeAt: 1)
    _ = machine.enqueue(1)
    _ = Self.taken(&machine)
    #expect(machine.enqueue(2) == .queued)
    #expect(machine.enqueue(3) == .waitForRoom)
    #expect(machine.close() == 1)
    #expect(machine.enqueue(3) == .drop)
    #expect(machine.finish() == .waitForWriter(wake: false))
    guard case .exit = machine.take() else {
      Issue.record("a closed output stops the writer")
      return
    }
  }
}
