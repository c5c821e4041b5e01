// Debounce's decisions alone, without a lock, a clock or a task: an element starts a burst and
// its one timer, later elements move the deadline, a timer wakes to emit or to re-arm, a stale
// timer is ignored, and the base's end, its failure and the consumer's leaving each end it.
import Testing

@testable import Streams

struct DebounceStateMachineTests {
  typealias Machine = DebounceStateMachine<String, Int>

  struct Failure: Error {}

  /// A wake told apart by its id; the machine only stores and returns it.
  static func wake(_ id: UInt64) -> ClockWake { ClockWake(kind: .scheduled(ManualClock(), id)) }

  static func describe(_ wake: ClockWake?) -> String {
    guard let wake else { return "nil" }
    if case .scheduled(_, let id) = wake.kind { return "wake\(id)" }
    return "other"
  }

  static func describe(_ action: Machine.Action) -> String {
    switch action {
    case .none: "none"
    case .emit(let element): "emit(\(element))"
    case .startTimer(let generation, let deadline): "startTimer(\(generation)@\(deadline))"
    case .cancelTimerAndEmit(let wake, let element): "cancelTimerAndEmit(\(describe(wake)), \(element))"
    case .cancelTimerAndStartTimer(let wake, let generation, let deadline):
      "cancelTimerAndStartTimer(\(describe(wake)), \(generation)@\(deadline))"
    case .cancelTimer(let wake): "cancelTimer(\(describe(wake)))"
    case .cancelTimerEmitAndFinish(let wake, let element):
      "cancelTimerEmitAndFinish(\(describe(wake)), \(element ?? "nil"))"
    case .cancelTimerAndFail(let wake, let error): "cancelTimerAndFail(\(describe(wake)), \(error is Failure))"
    }
  }

  static func describe(_ state: Machine.State) -> String {
    switch state {
    case .idle: "idle"
    case .pending(let burst):
      "pending(\(burst.element)@\(burst.deadline), timer \(burst.timer.generation)@\(burst.timer.deadline) "
        + "\(describe(burst.timer.wake)))"
    case .ended: "ended"
    }
  }

  /// A machine whose burst holds "a" due at 10, its timer (generation 1) scheduled as wake 7.
  static func pending() -> Machine {
    var machine = Machine()
    _ = machine.element("a", deadline: 10, now: 0)
    _ = machine.timerScheduled(wake(7), generation: 1)
    return machine
  }

  @Test func theFirstElementWaitsAndStartsATimer() {
    var machine = Machine()
    #expect(Self.describe(machine.element("a", deadline: 10, now: 0)) == "startTimer(1@10)")
    #expect(Self.describe(machine.state) == "pending(a@10, timer 1@10 nil)")
    #expect(Self.describe(machine.timerScheduled(Self.wake(7), generation: 1)) == "none")
    #expect(Self.describe(machine.state) == "pending(a@10, timer 1@10 wake7)")
  }

  @Test(arguments: [(0, 0), (-5, 0), (3, 3)])
  func aZeroQuietPeriodEmitsAtOnceWhenIdle(deadline: Int, now: Int) {
    var machine = Machine()
    #expect(Self.describe(machine.element("a", deadline: deadline, now: now)) == "emit(a)")
    #expect(Self.describe(machine.state) == "idle")
    #expect(machine.generation == 0)
  }

  @Test func aZeroQuietPeriodSupersedesThePendingElement() {
    var machine = Self.pending()
    #expect(Self.describe(machine.element("b", deadline: 4, now: 4)) == "cancelTimerAndEmit(wake7, b)")
    #expect(Self.describe(machine.state) == "idle")
  }

  @Test(arguments: [10, 25])
  func aLaterDeadlineKeepsTheRunningTimer(deadline: Int) {
    var machine = Self.pending()
    #expect(Self.describe(machine.element("b", deadline: deadline, now: 5)) == "none")
    #expect(Self.describe(machine.state) == "pending(b@\(deadline), timer 1@10 wake7)")
  }

  @Test func anEarlierDeadlineReplacesTheTimer() {
    var machine = Self.pending()
    #expect(Self.describe(machine.element("b", deadline: 8, now: 5)) == "cancelTimerAndStartTimer(wake7, 2@8)")
    #expect(Self.describe(machine.state) == "pending(b@8, timer 2@8 nil)")
    // The replaced timer's late scheduling is cancelled; the new one is kept.
    #expect(Self.describe(machine.timerScheduled(Self.wake(8), generation: 1)) == "cancelTimer(wake8)")
    #expect(Self.describe(machine.timerScheduled(Self.wake(9), generation: 2)) == "none")
    #expect(Self.describe(machine.state) == "pending(b@8, timer 2@8 wake9)")
  }

  @Test(arguments: [10, 12])
  func theTimerEmitsOnceTheQuietPeriodHasPassed(now: Int) {
    var machine = Self.pending()
    #expect(Self.describe(machine.timerFired(generation: 1, now: now)) == "emit(a)")
    #expect(Self.describe(machine.state) == "idle")
    // A second wake-up of the same generation finds nothing pending.
    #expect(Self.describe(machine.timerFired(generation: 1, now: now)) == "none")
  }

  @Test func theTimerReArmsForAMovedDeadlineUnderTheSameGeneration() {
    var machine = Self.pending()
    _ = machine.element("b", deadline: 15, now: 5)
    #expect(Self.describe(machine.timerFired(generation: 1, now: 10)) == "startTimer(1@15)")
    #expect(Self.describe(machine.state) == "pending(b@15, timer 1@15 nil)")
    #expect(Self.describe(machine.timerFired(generation: 1, now: 15)) == "emit(b)")
  }

  @Test func aStaleTimerIsIgnored() {
    var machine = Self.pending()
    _ = machine.element("b", deadline: 8, now: 5)
    #expect(Self.describe(machine.timerFired(generation: 1, now: 10)) == "none")
    #expect(Self.describe(machine.state) == "pending(b@8, timer 2@8 nil)")
  }

  @Test func aTimerScheduledAfterItsElementLeftIsCancelled() {
    var machine = Machine()
    _ = machine.element("a", deadline: 10, now: 0)
    // It fired while being scheduled.
    #expect(Self.describe(machine.timerFired(generation: 1, now: 10)) == "emit(a)")
    #expect(Self.describe(machine.timerScheduled(Self.wake(7), generation: 1)) == "cancelTimer(wake7)")
    #expect(Self.describe(machine.state) == "idle")
    _ = machine.cancelled()
    #expect(Self.describe(machine.timerScheduled(Self.wake(8), generation: 1)) == "cancelTimer(wake8)")
  }

  @Test func theBaseFinishingEmitsThePendingElementAtOnce() {
    var machine = Self.pending()
    #expect(Self.describe(machine.baseFinished()) == "cancelTimerEmitAndFinish(wake7, a)")
    #expect(Self.describe(machine.state) == "ended")
  }

  @Test func theBaseFinishingWhenIdleFinishes() {
    var machine = Machine()
    #expect(Self.describe(machine.baseFinished()) == "cancelTimerEmitAndFinish(nil, nil)")
    #expect(Self.describe(machine.state) == "ended")
  }

  @Test func theBaseFailingDropsThePendingElement() {
    var pending = Self.pending()
    #expect(Self.describe(pending.baseFailed(Failure())) == "cancelTimerAndFail(wake7, true)")
    #expect(Self.describe(pending.state) == "ended")
    var idle = Machine()
    #expect(Self.describe(idle.baseFailed(Failure())) == "cancelTimerAndFail(nil, true)")
    #expect(Self.describe(idle.state) == "ended")
  }

  @Test func theConsumerLeavingStopsTheTimer() {
    var pending = Self.pending()
    #expect(Self.describe(pending.cancelled()) == "cancelTimer(wake7)")
    #expect(Self.describe(pending.state) == "ended")
    var idle = Machine()
    #expect(Self.describe(idle.cancelled()) == "none")
    #expect(Self.describe(idle.state) == "ended")
  }

  enum Ending: CaseIterable { case finished, failed, cancelled }

  @Test(arguments: Ending.allCases)
  func nothingHappensOnceEnded(ending: Ending) {
    var machine = Self.pending()
    switch ending {
    case .finished: _ = machine.baseFinished()
    case .failed: _ = machine.baseFailed(Failure())
    case .cancelled: _ = machine.cancelled()
    }
    #expect(Self.describe(machine.element("late", deadline: 20, now: 11)) == "none")
    #expect(Self.describe(machine.element("late", deadline: 11, now: 11)) == "none")
    #expect(Self.describe(machine.timerFired(generation: 1, now: 10)) == "none")
    #expect(Self.describe(machine.baseFinished()) == "none")
    #expect(Self.describe(machine.baseFailed(Failure())) == "none")
    #expect(Self.describe(machine.cancelled()) == "none")
    #expect(Self.describe(machine.state) == "ended")
  }
}
