// AsyncCache's decisions alone, without a lock, a clock or a task: a miss starts one load and
// later misses join it, entries are fresh strictly before their expiry, a failure stores nothing,
// the last waiter leaving cancels the load and drops its late result, clearing stops loads in
// flight from storing.
import Testing

@testable import Streams

struct AsyncCacheStateMachineTests {
  typealias Machine = AsyncCacheStateMachine<String, Int, ContinuousClock.Instant>
  static let start = ContinuousClock.now

  static func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

  /// The load id a lookup started, or nil for any other action.
  static func started(_ action: Machine.LookUpAction) -> UInt64? {
    if case .start(let id) = action { id } else { nil }
  }

  static func joined(_ action: Machine.LookUpAction) -> UInt64? {
    if case .joined(let id) = action { id } else { nil }
  }

  static func hit(_ action: Machine.LookUpAction) -> Int? {
    if case .hit(let value) = action { value } else { nil }
  }

  /// A machine holding "a" → 1, loaded (and stored) at 0 ms.
  static func storing(timeToLive: Duration?, obtainedAt: ContinuousClock.Instant? = nil) -> Machine {
    var machine = Machine(capacity: 4, timeToLive: timeToLive)
    let id = started(machine.lookUp("a", now: at(0), cancelled: false) { _ in LoadWaiter() })
    _ = machine.finish(id ?? 0, for: "a", with: .success((1, obtainedAt)), now: at(0))
    return machine
  }

  @Test func aMissStartsOneLoadAndLaterMissesJoinIt() {
    var machine = Machine(capacity: 4, timeToLive: nil)
    var origins: [CacheOrigin] = []
    let waiter = { (origin: CacheOrigin) -> LoadWaiter<Int> in
      origins.append(origin)
      return LoadWaiter()
    }
    let first = machine.lookUp("a", now: Self.at(0), cancelled: false, makeWaiter: waiter)
    let second = machine.lookUp("a", now: Self.at(1), cancelled: false, makeWaiter: waiter)
    let other = machine.lookUp("b", now: Self.at(1), cancelled: false) { _ in LoadWaiter() }
    #expect(Self.started(first) == 1 && Self.joined(second) == 1 && Self.started(other) == 2)
    #expect(origins == [.loaded, .joined])
    #expect(machine.counters.loads == 2 && machine.counters.joins == 1)
    #expect(machine.flights.count == 2)
  }

  @Test(arguments: [(0, true), (999, true), (1_000, false), (5_000, false)])
  func anEntryIsAHitStrictlyBeforeItsExpiry(elapsed: Int, isHit: Bool) {
    var machine = Self.storing(timeToLive: .seconds(1))
    let action = machine.lookUp("a", now: Self.at(elapsed), cancelled: false) { _ in LoadWaiter() }
    #expect((Self.hit(action) == 1) == isHit)
    #expect(machine.counters.expirations == (isHit ? 0 : 1))
    // An expired entry stays, as the stale fallback.
    #expect(machine.entries.stale(for: "a") == 1)
  }

  @Test(arguments: [(-400, 600), (0, 1_000), (300, 1_000)])
  func anEntryLivesItsTimeToLiveFromWhenItWasObtainedNeverLater(obtained: Int, expiresAt: Int) {
    // Obtained 400 ms before it was stored: it expires 400 ms earlier; "after now" counts as now.
    var machine = Self.storing(timeToLive: .seconds(1), obtainedAt: Self.at(obtained))
    #expect(machine.hit(for: "a", now: Self.at(expiresAt - 1)) == 1)
    #expect(machine.hit(for: "a", now: Self.at(expiresAt)) == nil)
  }

  @Test func aCancelledCallerGetsAHitButStartsNothingOnAMiss() {
    var machine = Self.storing(timeToLive: nil)
    #expect(Self.hit(machine.lookUp("a", now: Self.at(1), cancelled: true) { _ in LoadWaiter() }) == 1)
    guard case .cancelled = machine.lookUp("b", now: Self.at(1), cancelled: true, makeWaiter: { _ in LoadWaiter() })
    else {
      Issue.record("a cancelled caller should not start a load")
      return
    }
    #expect(machine.flights.count == 0 && machine.counters.loads == 1)
  }

  @Test(arguments: [true, false])
  func finishingAnswersEveryWaiterAndStoresOnlyASuccess(succeeded: Bool) {
    var machine = Machine(capacity: 4, timeToLive: nil)
    let waiters = [LoadWaiter<Int>(), LoadWaiter<Int>()]
    let id = Self.started(machine.lookUp("a", now: Self.at(0), cancelled: false) { _ in waiters[0] })
    _ = machine.lookUp("a", now: Self.at(0), cancelled: false) { _ in waiters[1] }
    let result: Result<(Int, ContinuousClock.Instant?), any Error> =
      succeeded ? .success((7, nil)) : .failure(CancellationError())
    let answered = machine.finish(id ?? 0, for: "a", with: result, now: Self.at(5))
    #expect(answered.count == 2 && answered[0] === waiters[0] && answered[1] === waiters[1])
    #expect(machine.entries.count == (succeeded ? 1 : 0))
    #expect(machine.flights.count == 0)
  }

  @Test func theLastWaiterLeavingCancelsTheLoadAndItsLateResultIsDropped() {
    var machine = Machine(capacity: 4, timeToLive: nil)
    let (first, second) = (LoadWaiter<Int>(), LoadWaiter<Int>())
    let id = Self.started(machine.lookUp("a", now: Self.at(0), cancelled: false) { _ in first }) ?? 0
    _ = machine.lookUp("a", now: Self.at(0), cancelled: false) { _ in second }
    guard case .none = machine.leave(id, for: "a", waiter: first) else {
      Issue.record("the load should go on for the second waiter")
      return
    }
    guard case .cancelLoad(nil) = machine.leave(id, for: "a", waiter: second) else {
      Issue.record("the last waiter leaving should cancel the load (whose task is not attached yet)")
      return
    }
    // The task, attached only now, is cancelled at once; its result, should it come, is dropped.
    let task = Task<Void, Never> {}
    #expect(machine.attach(task, to: id, for: "a") == .cancel)
    #expect(machine.finish(id, for: "a", with: .success((1, nil)), now: Self.at(1)).isEmpty)
    #expect(machine.entries.count == 0)
    // The next miss starts a new load, with a new id.
    #expect(Self.started(machine.lookUp("a", now: Self.at(2), cancelled: false) { _ in LoadWaiter() }) == id + 1)
  }

  @Test func aCallerThatCannotWaitLeavesALoadInFlightAlone() {
    var machine = Machine(capacity: 4, timeToLive: nil)
    let id = Self.started(machine.lookUp("a", now: Self.at(0), cancelled: false) { _ in LoadWaiter() }) ?? 0
    guard case .inFlight = machine.lookUpAtOnce("a", now: Self.at(0)) else {
      Issue.record("a load in flight should be left alone")
      return
    }
    #expect(machine.counters.joins == 0 && machine.flights.flights["a"]?.waiters.count == 1)
    guard case .start(let other) = machine.lookUpAtOnce("b", now: Self.at(0)) else {
      Issue.record("a miss with no load in flight should start one at once")
      return
    }
    #expect(other == id + 1 && machine.flights.flights["b"]?.waiters.isEmpty == true)
  }

  @Test func clearingKeepsLoadsInFlightAnsweringButStoringNothing() {
    var machine = Self.storing(timeToLive: nil)
    let waiter = LoadWaiter<Int>()
    let id = Self.started(machine.lookUp("b", now: Self.at(0), cancelled: false) { _ in waiter }) ?? 0
    machine.removeAll()
    #expect(machine.entries.count == 0)
    #expect(machine.finish(id, for: "b", with: .success((2, nil)), now: Self.at(1)).count == 1)
    #expect(machine.entries.count == 0)
  }

  @Test func storingIntoAFullCacheEvictsTheLeastRecentlyUsedAndCountsIt() {
    var machine = Machine(capacity: 2, timeToLive: nil)
    for key in ["a", "b", "c"] {
      let id = Self.started(machine.lookUp(key, now: Self.at(0), cancelled: false) { _ in LoadWaiter() }) ?? 0
      _ = machine.finish(id, for: key, with: .success((1, nil)), now: Self.at(0))
      if key == "b" { _ = machine.hit(for: "a", now: Self.at(0)) }
    }
    #expect(machine.entries.keysByRecency == ["c", "a"])
    #expect(machine.counters.evictions == 1)
  }
}
