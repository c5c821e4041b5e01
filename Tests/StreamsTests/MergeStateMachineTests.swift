// Merge's decisions alone, without a lock or a task: every element passes while a base runs,
// the last base's end finishes, the first failure cancels the rest, the consumer's leaving
// cancels every base, and nothing passes once ended.
import Testing

@testable import Streams

struct MergeStateMachineTests {
  typealias Machine = MergeStateMachine<Int>

  struct Failure: Error {}

  static func describe(_ action: Machine.Action) -> String {
    switch action {
    case .none: "none"
    case .emit(let element): "emit(\(element))"
    case .finish: "finish"
    case .cancelBasesAndFail(let error): "cancelBasesAndFail(\(error is Failure))"
    case .cancelBases: "cancelBases"
    }
  }

  static func describe(_ state: Machine.State) -> String {
    switch state {
    case .merging(let running): "merging(\(running))"
    case .ended: "ended"
    }
  }

  @Test func noBaseFinishesAtOnce() {
    var machine = Machine(bases: 0)
    #expect(Self.describe(machine.basesConnected()) == "finish")
    #expect(Self.describe(machine.state) == "ended")
  }

  @Test(arguments: [1, 3])
  func connectedBasesGoOn(bases: Int) {
    var machine = Machine(bases: bases)
    #expect(Self.describe(machine.basesConnected()) == "none")
    #expect(Self.describe(machine.state) == "merging(\(bases))")
  }

  @Test func basesEndingWhileBeingConnectedFinishOnce() {
    var machine = Machine(bases: 1)
    #expect(Self.describe(machine.baseFinished()) == "finish")
    #expect(Self.describe(machine.basesConnected()) == "none")
    #expect(Self.describe(machine.state) == "ended")
  }

  @Test func everyElementPassesInOrder() {
    var machine = Machine(bases: 2)
    _ = machine.basesConnected()
    let actions = [3, 1, 2].map { Self.describe(machine.element($0)) }
    #expect(actions == ["emit(3)", "emit(1)", "emit(2)"])
    #expect(Self.describe(machine.state) == "merging(2)")
  }

  @Test(arguments: [1, 2, 4])
  func theLastBaseToFinishFinishes(bases: Int) {
    var machine = Machine(bases: bases)
    _ = machine.basesConnected()
    var actions: [String] = []
    for _ in 0..<bases { actions.append(Self.describe(machine.baseFinished())) }
    #expect(actions == Array(repeating: "none", count: bases - 1) + ["finish"])
    #expect(Self.describe(machine.state) == "ended")
  }

  @Test func aBaseFinishingLeavesTheOthersRunning() {
    var machine = Machine(bases: 3)
    #expect(Self.describe(machine.baseFinished()) == "none")
    #expect(Self.describe(machine.state) == "merging(2)")
    #expect(Self.describe(machine.element(5)) == "emit(5)")
  }

  @Test func theFirstFailureCancelsTheOtherBases() {
    var machine = Machine(bases: 3)
    _ = machine.basesConnected()
    _ = machine.baseFinished()
    #expect(Self.describe(machine.baseFailed(Failure())) == "cancelBasesAndFail(true)")
    #expect(Self.describe(machine.state) == "ended")
    #expect(Self.describe(machine.baseFailed(Failure())) == "none")
  }

  @Test func theConsumerLeavingCancelsEveryBase() {
    var machine = Machine(bases: 2)
    _ = machine.basesConnected()
    #expect(Self.describe(machine.cancelled()) == "cancelBases")
    #expect(Self.describe(machine.state) == "ended")
    #expect(Self.describe(machine.cancelled()) == "none")
  }

  enum Ending: CaseIterable { case finished, failed, cancelled }

  @Test(arguments: Ending.allCases)
  func nothingHappensOnceEnded(ending: Ending) {
    var machine = Machine(bases: 1)
    _ = machine.basesConnected()
    switch ending {
    case .finished: _ = machine.baseFinished()
    case .failed: _ = machine.baseFailed(Failure())
    case .cancelled: _ = machine.cancelled()
    }
    #expect(Self.describe(machine.element(9)) == "none")
    #expect(Self.describe(machine.baseFinished()) == "none")
    #expect(Self.describe(machine.baseFailed(Failure())) == "none")
    #expect(Self.describe(machine.cancelled()) == "none")
    #expect(Self.describe(machine.basesConnected()) == "none")
    #expect(Self.describe(machine.state) == "ended")
  }
}
