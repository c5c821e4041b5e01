// PipelineInlet's decisions alone, without sessions, a clock or a task: lines are counted always
// and routed only while input is taken, the first session schedules the sweep and the sweep goes
// on while sessions are left, the end comes once every session ended after the finish, or at once
// on cancel, and a sweep scheduled after either is stopped at once.
import Testing

@testable import Pipeline

struct PipelineInletStateMachineTests {
  typealias Machine = PipelineInletStateMachine<String, Int>

  @Test func linesAreCountedAlwaysAndRoutedOnlyWhileInputIsTaken() {
    var machine = Machine()
    let step1 = machine.lineArrived()
    #expect(step1)
    _ = machine.finish()
    let step2 = machine.lineArrived()
    #expect(!step2)
    #expect(machine.inputLines == 2)
  }

  @Test func theFirstSessionSchedulesTheSweepAndItGoesOnWhileSessionsAreLeft() {
    var machine = Machine()
    let step3 = machine.sessionStarted()
    #expect(step3)
    let step4 = machine.sessionStarted()
    #expect(!step4, "one sweep at a time")
    let step5 = machine.sweepScheduled(1)
    #expect(!step5)
    #expect(machine.sweepFires())
    let step6 = machine.swept(sessionsLeft: true)
    #expect(step6)
    let step7 = machine.swept(sessionsLeft: false)
    #expect(!step7)
    let step8 = machine.sessionStarted()
    #expect(step8, "a session after the sweep stopped starts it again")
  }

  @Test(arguments: [false, true])
  func finishingOrCancellingStopsTheScheduledSweepAndAnyLaterOne(cancelling: Bool) {
    var machine = Machine()
    _ = machine.sessionStarted()
    _ = machine.sweepScheduled(7)
    let stop = cancelling ? machine.cancel() : machine.finish()
    #expect(stop.takeSessions && stop.cancelSweep == 7)
    #expect(!machine.sweepFires())
    let step9 = machine.sweepScheduled(8)
    #expect(step9, "a sweep scheduled meanwhile is stopped at once")
  }

  @Test func aSecondFinishTakesNothing() {
    var machine = Machine()
    _ = machine.finish()
    let again = machine.finish()
    #expect(!again.takeSessions && again.cancelSweep == nil)
  }

  @Test func theEndComesOnceEverySessionEndedAfterTheFinish() {
    var machine = Machine()
    _ = machine.sessionStarted()
    _ = machine.sessionStarted()
    let step10 = machine.wait("waiter")
    #expect(step10 == nil)
    let step11 = machine.sessionEnded()
    #expect(step11 == nil, "not finished yet")
    _ = machine.finish()
    let step12 = machine.takeWaiterIfDone()
    #expect(step12 == nil, "a session is still open")
    let step13 = machine.sessionEnded()
    #expect(step13 == "waiter")
    let step14 = machine.takeWaiterIfDone()
    #expect(step14 == nil, "resumed once")
  }

  @Test(arguments: [(0, false), (0, true), (3, true)])
  func aWaiterArrivingAfterTheEndIsResumedAtOnce(openSessions: Int, cancelling: Bool) {
    var machine = Machine()
    for _ in 0..<openSessions { _ = machine.sessionStarted() }
    _ = cancelling ? machine.cancel() : machine.finish()
    let step15 = machine.wait("waiter")
    #expect(step15 == "waiter")
  }
}
