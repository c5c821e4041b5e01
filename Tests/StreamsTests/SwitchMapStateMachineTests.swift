// switchMap's decisions alone, without a lock or a task: an element starts its child and
// supersedes the previous one, only the latest child's output passes, the base's end waits for
// the last child, a failure or the consumer's leaving stops the child, and a child starting after
// it was superseded is stopped at once.
import StreamsTesting
import Testing

@testable import Streams

struct SwitchMapStateMachineTests {
  typealias Machine = SwitchMapStateMachine<String, Int>

  struct Failure: Error {}

  /// The handles cancelled, by number: a fresh recorder per test.
  let cancels = Recorder<Int>()

  func handle(_ number: Int) -> SwitchMapChildHandle {
    let cancels = cancels
    return .pending { cancels.append(number) }
  }

  /// Names a handle by cancelling it and reading which one it was.
  func describe(_ handle: SwitchMapChildHandle?) -> String {
    guard let handle else { return "nil" }
    handle.cancel()
    return cancels.values.last.map { "handle\($0)" } ?? "unnamed"
  }

  func describe(_ action: Machine.Action) -> String {
    switch action {
    case .none: "none"
    case .emitStartedAndStartChild(let input, let generation): "start(\(input)#\(generation))"
    case .cancelChildEmitAndStartChild(let handle, let cancelled, let input, let generation):
      "cancel(\(describe(handle)), \(cancelled)) start(\(input)#\(generation))"
    case .emitOutput(let output): "emit(\(output))"
    case .cancelChild(let handle): "cancelChild(\(describe(handle)))"
    case .finish: "finish"
    case .cancelChildAndFail(let handle, let error): "cancelChildAndFail(\(describe(handle)), \(error is Failure))"
    }
  }

  func describe(_ state: Machine.State) -> String {
    switch state {
    case .idle: "idle"
    case .running(let child): "running(\(child.input)#\(child.generation) \(child.handle == nil ? "-" : "handle"))"
    case .lastChildRunning(let child):
      "lastChildRunning(\(child.input)#\(child.generation) \(child.handle == nil ? "-" : "handle"))"
    case .ended: "ended"
    }
  }

  /// A machine whose child of "a" (generation 1) runs with handle 1.
  func running() -> Machine {
    var machine = Machine()
    _ = machine.element("a")
    _ = machine.childStarted(handle(1), generation: 1)
    return machine
  }

  @Test func theFirstElementStartsItsChild() {
    var machine = Machine()
    #expect(describe(machine.element("a")) == "start(a#1)")
    #expect(describe(machine.state) == "running(a#1 -)")
    #expect(describe(machine.childStarted(handle(1), generation: 1)) == "none")
    #expect(describe(machine.state) == "running(a#1 handle)")
    #expect(cancels.values.isEmpty)
  }

  @Test func aNewerElementSupersedesTheRunningChild() {
    var machine = running()
    #expect(describe(machine.element("b")) == "cancel(handle1, a) start(b#2)")
    #expect(describe(machine.state) == "running(b#2 -)")
  }

  @Test func aChildSupersededDuringItsStartIsStoppedOnceStarted() {
    var machine = Machine()
    _ = machine.element("a")
    #expect(describe(machine.element("b")) == "cancel(nil, a) start(b#2)")
    #expect(describe(machine.childStarted(handle(1), generation: 1)) == "cancelChild(handle1)")
    #expect(describe(machine.state) == "running(b#2 -)")
  }

  @Test(arguments: [(2, true), (1, false), (3, false)])
  func onlyTheLatestChildsOutputPasses(generation: UInt64, passes: Bool) {
    var machine = running()
    _ = machine.element("b")
    #expect(describe(machine.childEmitted(42, generation: generation)) == (passes ? "emit(42)" : "none"))
    #expect(describe(machine.state) == "running(b#2 -)")
  }

  @Test func theLatestChildReturningLeavesTheBaseGoingOn() {
    var machine = running()
    #expect(describe(machine.childReturned(generation: 1)) == "none")
    #expect(describe(machine.state) == "idle")
    #expect(machine.lastReturned == 1)
    #expect(describe(machine.childEmitted(1, generation: 1)) == "none")
    #expect(describe(machine.element("b")) == "start(b#2)")
  }

  @Test func aSupersededChildReturningChangesNothing() {
    var machine = running()
    _ = machine.element("b")
    #expect(describe(machine.childReturned(generation: 1)) == "none")
    #expect(describe(machine.state) == "running(b#2 -)")
    #expect(machine.lastReturned == 0)
  }

  @Test func aChildReturningDuringItsStartIsNotStopped() {
    var machine = Machine()
    _ = machine.element("a")
    #expect(describe(machine.childReturned(generation: 1)) == "none")
    #expect(describe(machine.childStarted(handle(1), generation: 1)) == "none")
    #expect(cancels.values.isEmpty)
    #expect(describe(machine.state) == "idle")
  }

  @Test func theBaseFinishingWhenIdleFinishes() {
    var machine = Machine()
    #expect(describe(machine.baseFinished()) == "finish")
    #expect(describe(machine.state) == "ended")
  }

  @Test func theBaseFinishingWaitsForTheLastChild() {
    var machine = running()
    #expect(describe(machine.baseFinished()) == "none")
    #expect(describe(machine.state) == "lastChildRunning(a#1 handle)")
    #expect(describe(machine.element("late")) == "none")
    #expect(describe(machine.childEmitted(7, generation: 1)) == "emit(7)")
    #expect(describe(machine.childReturned(generation: 2)) == "none")
    #expect(describe(machine.childReturned(generation: 1)) == "finish")
    #expect(describe(machine.state) == "ended")
  }

  @Test func theLastChildKeepsItsHandleWhenTheBaseFinishedDuringItsStart() {
    var machine = Machine()
    _ = machine.element("a")
    _ = machine.baseFinished()
    #expect(describe(machine.childStarted(handle(1), generation: 1)) == "none")
    #expect(describe(machine.state) == "lastChildRunning(a#1 handle)")
    #expect(describe(machine.cancelled()) == "cancelChild(handle1)")
  }

  enum Before: CaseIterable { case idle, running, lastChildRunning }

  func machine(_ before: Before) -> Machine {
    switch before {
    case .idle: return Machine()
    case .running: return running()
    case .lastChildRunning:
      var machine = running()
      _ = machine.baseFinished()
      return machine
    }
  }

  @Test(arguments: Before.allCases)
  func theBaseFailingStopsTheChild(before: Before) {
    var machine = machine(before)
    let expected = before == .idle ? "cancelChildAndFail(nil, true)" : "cancelChildAndFail(handle1, true)"
    #expect(describe(machine.baseFailed(Failure())) == expected)
    #expect(describe(machine.state) == "ended")
  }

  @Test(arguments: Before.allCases)
  func theConsumerLeavingStopsTheChild(before: Before) {
    var machine = machine(before)
    #expect(describe(machine.cancelled()) == (before == .idle ? "none" : "cancelChild(handle1)"))
    #expect(describe(machine.state) == "ended")
  }

  enum Ending: CaseIterable { case finished, failed, cancelled }

  @Test(arguments: Ending.allCases)
  func nothingHappensOnceEnded(ending: Ending) {
    var machine = Machine()
    _ = machine.element("a")
    switch ending {
    case .finished:
      _ = machine.baseFinished()
      _ = machine.childReturned(generation: 1)
    case .failed: _ = machine.baseFailed(Failure())
    case .cancelled: _ = machine.cancelled()
    }
    #expect(describe(machine.state) == "ended")
    #expect(describe(machine.element("late")) == "none")
    #expect(describe(machine.childEmitted(1, generation: 1)) == "none")
    #expect(describe(machine.baseFinished()) == "none")
    #expect(describe(machine.baseFailed(Failure())) == "none")
    #expect(describe(machine.cancelled()) == "none")
    #expect(describe(machine.state) == "ended")
  }

  @Test(arguments: [Ending.failed, .cancelled])
  func aChildStartingAfterTheEndIsStopped(ending: Ending) {
    var machine = Machine()
    _ = machine.element("a")
    _ = ending == .failed ? machine.baseFailed(Failure()) : machine.cancelled()
    #expect(describe(machine.childStarted(handle(1), generation: 1)) == "cancelChild(handle1)")
    #expect(describe(machine.childReturned(generation: 1)) == "none")
  }
}
