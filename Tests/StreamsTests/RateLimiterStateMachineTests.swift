// RateLimiter's bookkeeping alone, without a lock, a clock or a task: free permits are taken at
// once, a full window makes the caller the head of the line, later callers queue behind it, the
// head's wake-up takes its permit and moves the line up, and a cancelled waiter leaves the line.
// Continuations are real ones, resumed within the test's own suspension.
import Testing

@testable import Streams

struct RateLimiterStateMachineTests {
  typealias Machine = RateLimiterStateMachine<ContinuousClock.Instant>
  typealias Resumption = (Machine.Continuation, Result<Machine.Turn, any Error>)

  struct Stuck: Error {}

  static let start = ContinuousClock.now

  static func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

  static func ms(_ instant: ContinuousClock.Instant) -> Int {
    let components = start.duration(to: instant).components
    return Int(components.seconds) * 1_000 + Int(components.attoseconds / 1_000_000_000_000_000)
  }

  static func describe(_ action: Machine.AcquireAction) -> String {
    switch action {
    case .proceed(let id): "proceed(\(id))"
    case .sleep(let id, let until): "sleep(\(id), until: \(ms(until)))"
    case .wait(let id, let expected): "wait(\(id), expected: \(ms(expected)))"
    }
  }

  static func describe(_ turn: Machine.Turn) -> String {
    switch turn {
    case .granted: "granted"
    case .sleep(let until): "sleep(until: \(ms(until)))"
    }
  }

  static func describe(_ action: Machine.HeadWokeAction) -> String {
    switch action {
    case .proceed(let resuming): "proceed(resuming: \(resuming.map { describe($0.1) }))"
    case .sleepAgain(let until): "sleepAgain(until: \(ms(until)))"
    }
  }

  /// Registers waiter `id` on a real continuation and, if it suspends, runs `meanwhile`, resuming
  /// the first resumption it returns; says how the waiter came out ("at once …", "resumed …",
  /// "… cancelled", or "stuck" when nothing resumed it).
  static func register(
    _ id: UInt64, in machine: inout Machine, meanwhile: (inout Machine) -> [Resumption] = { _ in [] }
  ) async -> String {
    var path = "at once"
    do {
      let turn = try await withUnsafeThrowingContinuation { (continuation: Machine.Continuation) in
        if let result = machine.register(id, continuation: continuation) {
          continuation.resume(with: result)
          return
        }
        path = "resumed"
        guard let (resumed, result) = meanwhile(&machine).first else {
          continuation.resume(throwing: Stuck())
          return
        }
        resumed.resume(with: result)
      }
      return "\(path) \(describe(turn))"
    } catch is CancellationError {
      return "\(path) cancelled"
    } catch {
      return "stuck"
    }
  }

  static func woken(_ id: UInt64, at now: Int) -> (inout Machine) -> [Resumption] {
    { machine in
      guard case .proceed(let resuming) = machine.headWoke(id, now: at(now)) else { return [] }
      return resuming.map { ($0.0, .success($0.1)) }
    }
  }

  /// Two permits per 100 ms, taken at 0 and 10; caller 3 heads the line from 20.
  static func full() -> Machine {
    var machine = Machine(permits: 2, window: .milliseconds(100))
    _ = machine.acquire(now: at(0))
    _ = machine.acquire(now: at(10))
    _ = machine.acquire(now: at(20))
    return machine
  }

  @Test(arguments: [1, 2, 3])
  func freePermitsAreTakenAtOnceThenTheCallerHeadsTheLine(permits: Int) {
    var machine = Machine(permits: permits, window: .milliseconds(100))
    let actions = (0...permits).map { Self.describe(machine.acquire(now: Self.at($0 * 10))) }
    #expect(actions == (1...permits).map { "proceed(\($0))" } + ["sleep(\(permits + 1), until: 100)"])
  }

  @Test func callersBehindTheHeadWaitWithTheirExpectedGrant() {
    var machine = Self.full()
    #expect(Self.describe(machine.acquire(now: Self.at(30))) == "wait(4, expected: 110)")
    #expect(Self.describe(machine.acquire(now: Self.at(40))) == "wait(5, expected: 200)")
  }

  @Test func aPermitFreedWhileOthersWaitIsTheirs() {
    var machine = Self.full()
    _ = machine.acquire(now: Self.at(30))
    #expect(Self.describe(machine.acquire(now: Self.at(500))) == "wait(5, expected: 500)")
  }

  @Test(arguments: [(20, 100), (99, 100)])
  func aHeadWokenEarlySleepsAgain(now: Int, until: Int) {
    var machine = Self.full()
    #expect(Self.describe(machine.headWoke(3, now: Self.at(now))) == "sleepAgain(until: \(until))")
  }

  @Test func theHeadTakesItsPermitWhenItWakes() {
    var machine = Self.full()
    #expect(Self.describe(machine.headWoke(3, now: Self.at(100))) == "proceed(resuming: [])")
    // Nobody heads any more; the permit freed at 110 is free at 110.
    #expect(Self.describe(machine.acquire(now: Self.at(110))) == "proceed(4)")
  }

  @Test func aSuspendedWaiterBecomesTheHeadWhenTheHeadWakes() async {
    var machine = Self.full()
    _ = machine.acquire(now: Self.at(30))
    #expect(await Self.register(4, in: &machine, meanwhile: Self.woken(3, at: 100)) == "resumed sleep(until: 110)")
    #expect(Self.describe(machine.headWoke(4, now: Self.at(110))) == "proceed(resuming: [])")
  }

  @Test func aSuspendedWaiterIsGrantedWhenPermitsFreeTogether() async {
    var machine = Machine(permits: 2, window: .milliseconds(100))
    _ = machine.acquire(now: Self.at(0))
    _ = machine.acquire(now: Self.at(0))
    _ = machine.acquire(now: Self.at(0))
    _ = machine.acquire(now: Self.at(0))
    #expect(await Self.register(4, in: &machine, meanwhile: Self.woken(3, at: 100)) == "resumed granted")
    #expect(Self.describe(machine.acquire(now: Self.at(150))) == "sleep(5, until: 200)")
  }

  @Test func aWaiterPromotedBeforeItRegistersFindsItsTurnAtOnce() async {
    var machine = Self.full()
    _ = machine.acquire(now: Self.at(30))
    #expect(Self.describe(machine.headWoke(3, now: Self.at(100))) == "proceed(resuming: [])")
    #expect(await Self.register(4, in: &machine) == "at once sleep(until: 110)")
  }

  @Test func aSuspendedWaiterCancelledLeavesTheLine() async {
    var machine = Self.full()
    _ = machine.acquire(now: Self.at(30))
    _ = machine.acquire(now: Self.at(40))
    let cancel: (inout Machine) -> [Resumption] = { machine in
      machine.cancel(4).map { [($0, .failure(CancellationError()))] } ?? []
    }
    #expect(await Self.register(4, in: &machine, meanwhile: cancel) == "resumed cancelled")
    #expect(machine.cancel(4) == nil)
    // Caller 5 is next: promoted when the head wakes.
    #expect(Self.describe(machine.headWoke(3, now: Self.at(100))) == "proceed(resuming: [])")
    #expect(await Self.register(5, in: &machine) == "at once sleep(until: 110)")
  }

  @Test func aWaiterCancelledBeforeItRegistersThrowsOnRegistration() async {
    var machine = Self.full()
    _ = machine.acquire(now: Self.at(30))
    #expect(machine.cancel(4) == nil)
    #expect(await Self.register(4, in: &machine) == "at once cancelled")
    // It left the line: the head's wake-up promotes nobody.
    #expect(Self.describe(machine.headWoke(3, now: Self.at(100))) == "proceed(resuming: [])")
    #expect(Self.describe(machine.acquire(now: Self.at(110))) == "proceed(5)")
  }

  @Test(arguments: [(50, "sleep(until: 100)"), (100, "granted")])
  func theHeadLeavingPromotesTheNextWaiter(now: Int, turn: String) async {
    var machine = Self.full()
    _ = machine.acquire(now: Self.at(30))
    let leave: (inout Machine) -> [Resumption] = { machine in
      machine.headCancelled(3, now: Self.at(now)).map { ($0.0, .success($0.1)) }
    }
    #expect(await Self.register(4, in: &machine, meanwhile: leave) == "resumed \(turn)")
  }

  @Test func theHeadLeavingAloneEmptiesTheLine() {
    var machine = Self.full()
    #expect(machine.headCancelled(3, now: Self.at(50)).isEmpty)
    #expect(Self.describe(machine.acquire(now: Self.at(100))) == "proceed(4)")
  }

  @Test(arguments: [(Int?.none, 249), (50, 150)])
  func aPermitHeldUntilFinishedFreesAWindowAfterItsEnd(finishedAt: Int?, until: Int) {
    var machine = Machine(permits: 1, window: .milliseconds(100))
    #expect(Self.describe(machine.acquire(now: Self.at(0), untilFinished: true)) == "proceed(1)")
    if let finishedAt { machine.finish(1, at: Self.at(finishedAt)) }
    #expect(Self.describe(machine.acquire(now: Self.at(149))) == "sleep(2, until: \(until))")
  }

  @Test func finishingAPermitOverAtItsGrantChangesNothing() {
    var machine = Machine(permits: 1, window: .milliseconds(100))
    _ = machine.acquire(now: Self.at(0))
    machine.finish(1, at: Self.at(80))
    #expect(Self.describe(machine.acquire(now: Self.at(100))) == "proceed(2)")
  }
}
