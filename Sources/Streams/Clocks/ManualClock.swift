// A clock whose time moves only when it is told to: the clock of tests and of virtual-time replay.
import Synchronization

/// A clock whose time moves only when `advance(by:)` or `advance(to:)` is called.
///
/// Useful for testing code that waits: hand it to the code under test instead of
/// `ContinuousClock`, then move time forward and check what happened at each instant.
///
/// ```swift
/// let clock = ManualClock()
/// let woke = Recorder<Int64>()
/// let task = Task {
///   try await clock.sleep(for: .milliseconds(500))
///   woke.append(clock.now.milliseconds)
/// }
/// try await clock.waitForSleepers(1)       // StreamsTesting: the sleep has registered
/// clock.advance(by: .milliseconds(499))   // the task still sleeps
/// clock.advance(by: .milliseconds(1))     // now it wakes
/// try await task.value                    // woke.values == [500]
/// ```
///
/// > Important: A task's sleep registers only when the task gets to it. Advancing before then
/// > moves time under a task that has not started waiting, which then sleeps 500 ms from the
/// > new `now`. Await the sleeper first (`waitForSleepers`, from StreamsTesting), or drive the
/// > code with ``VirtualTimeRunner``, which runs everything due before it moves time.
///
/// ## Semantics
/// - A sleep whose deadline has already been reached (or a negative duration) returns at once
///   without suspending.
/// - Cancelling a sleeping task throws `CancellationError` from its `sleep` at once and removes it.
/// - Sleepers due at the same instant wake in registration order, one at a time; earlier
///   deadlines wake first.
///
/// > Important: `advance` resumes the sleepers but does not wait for the work they then do,
/// > which runs wherever their tasks run. To observe that work deterministically, drive the
/// > code with ``VirtualTimeRunner``, whose `clock` is a `ManualClock`.
public final class ManualClock: Clock, Sendable {
  /// A point in a manual clock's time: an offset from its zero.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time elapsed since the clock's zero.
    public var offset: Duration

    /// Creates the instant `offset` after the clock's zero.
    public init(offset: Duration) { self.offset = offset }

    /// The clock's zero.
    public static var zero: Instant { Instant(offset: .zero) }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

    /// The offset from the clock's zero in milliseconds, as every message of the package writes
    /// time: "749 ms", "2,749 ms".
    public var description: String { offset.millisecondsDescription }
  }

  private let sleepers: Mutex<SleeperQueue>
  /// The sleepers' `now`, mirrored for ``now`` to read without their lock (a replay reads the
  /// time a few times per keystroke): a sequence lock. Written only under the sleepers' lock,
  /// whenever a step changed the time: the version goes odd, the two components are stored,
  /// the version goes even. A reader retries while the version is odd or changed under it. The
  /// time is kept as the two halves of its count of attoseconds: splitting it into seconds and
  /// attoseconds divides, which cost more than the lock.
  private let nowVersion = Atomic<UInt64>(0)
  private let nowHigh = Atomic<Int64>(0)
  private let nowLow = Atomic<UInt64>(0)

  /// The executor of the runner this clock belongs to, if any: told of sleeps that come from
  /// tasks outside its run, which it cannot order.
  private let runner: VirtualExecutor?

  /// Creates a clock that reads `now`, and moves only when told to.
  public convenience init(now: Instant = .zero) {
    self.init(now: now, runner: nil)
  }

  /// A clock that `runner` moves (a ``VirtualTimeRunner``'s own).
  init(now: Instant, runner: VirtualExecutor?) {
    self.runner = runner
    sleepers = Mutex(SleeperQueue(now: now.offset))
    publishNow(now.offset)
  }

  /// The clock's current time.
  public var now: Instant {
    // A retry waits for one writer's three stores, made under the sleepers' lock; should that
    // writer be preempted between them, spinning would last its time slice, so after a few
    // tries the time is read under the lock, which waits for the writer instead.
    for _ in 0..<64 {
      let version = nowVersion.load(ordering: .acquiring)
      guard version & 1 == 0 else { continue }
      let high = nowHigh.load(ordering: .relaxed)
      let low = nowLow.load(ordering: .relaxed)
      atomicMemoryFence(ordering: .acquiring)
      if nowVersion.load(ordering: .relaxed) == version {
        return Instant(offset: Duration(attoseconds: Int128(high) << 64 | Int128(low)))
      }
    }
    return Instant(offset: sleepers.withLock { $0.now })
  }

  /// Stores `now` in the mirror that ``now`` reads, if it changed. Called only under the sleepers'
  /// lock, which orders the writers.
  private func publishNow(_ now: Duration) {
    let attoseconds = now.attoseconds
    let high = Int64(truncatingIfNeeded: attoseconds >> 64)
    let low = UInt64(truncatingIfNeeded: attoseconds)
    guard high != nowHigh.load(ordering: .relaxed) || low != nowLow.load(ordering: .relaxed) else { return }
    let version = nowVersion.load(ordering: .relaxed)
    nowVersion.store(version &+ 1, ordering: .relaxed)
    atomicMemoryFence(ordering: .releasing)
    nowHigh.store(high, ordering: .relaxed)
    nowLow.store(low, ordering: .relaxed)
    nowVersion.store(version &+ 2, ordering: .releasing)
  }

  /// Runs `step` under the sleepers' lock, then publishes the time it may have moved.
  private func movingTime<T>(_ step: (inout SleeperQueue) -> T) -> T {
    sleepers.withLock { state in
      let result = step(&state)
      publishNow(state.now)
      return result
    }
  }

  /// Zero: the clock can represent any instant.
  public var minimumResolution: Duration { .zero }

  /// How many sleepers wait on this clock: tasks asleep in ``sleep(until:tolerance:)`` and calls
  /// scheduled for a deadline without a task (the timers of the Streams operators, and the limit
  /// of each `withTimeout` in flight), together.
  ///
  /// Zero at the end of a test means nothing is left waiting for time to move. Three searches in
  /// flight, each a sleeping task under a `withTimeout`, count six: ``sleepingTaskCount`` and
  /// ``scheduledCallCount`` tell them apart.
  public var sleeperCount: Int { sleepers.withLock { $0.sleeperCount } }

  /// How many tasks are asleep in ``sleep(until:tolerance:)`` on this clock.
  public var sleepingTaskCount: Int { sleepers.withLock { $0.sleeperCount - $0.scheduledCallCount } }

  /// How many calls are scheduled on this clock without a task: the timers of the Streams
  /// operators (a debounce's deadline) and the limit of each `withTimeout` in flight. Each is
  /// made by whoever moves time to its deadline.
  public var scheduledCallCount: Int { sleepers.withLock { $0.scheduledCallCount } }

  /// ``sleeperCount`` and ``scheduledCallCount`` read at one instant, for messages that give both.
  package var sleeperCounts: (sleepers: Int, scheduledCalls: Int) {
    sleepers.withLock { ($0.sleeperCount, $0.scheduledCallCount) }
  }

  /// The earliest deadline among the sleepers, or nil when none sleeps.
  public var nextDeadline: Instant? {
    sleepers.withLock { $0.nextDeadline() }.map(Instant.init(offset:))
  }

  /// Suspends until the clock reaches `deadline`.
  ///
  /// Returns at once when the deadline has been reached; throws `CancellationError` at once when
  /// the task is cancelled, before or during the sleep. `tolerance` is ignored: wake-ups are exact.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id: UInt64? = sleepers.withLock { state in
      deadline.offset <= state.now ? nil : state.reserve()
    }
    guard let id else { return }
    // Outside work asleep here is virtual: the runner must move time rather than wait for it.
    let outsideWork = ExternalWorkScope.executor
    // A task that does not prefer the runner's executor runs its way to and from this sleep on
    // the global pool, where the runner cannot see it: it may move time first. Say so.
    if let runner, outsideWork == nil, !runner.isPreferredByCurrentTask { runner.noteSleepFromOutsideTheRun() }
    outsideWork?.externalWorkSleeps(true)
    defer { outsideWork?.externalWorkSleeps(false) }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: SleeperQueue.Continuation) in
        let (immediate, satisfied) = sleepers.withLock {
          ($0.register(id, deadline: deadline.offset, continuation: continuation), $0.takeSatisfiedCountWaiters())
        }
        if let immediate { continuation.resume(with: immediate) }
        for waiter in satisfied { waiter.resume() }
      }
    } onCancel: {
      sleepers.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
    }
  }

  /// Suspends until at least `count` tasks are asleep on this clock, or until
  /// ``abandonSleeperWait(_:)`` is called with `id` (from ``reserveSleeperWaitID()``).
  /// StreamsTesting bounds it in real time; it does not poll.
  package func awaitSleepers(atLeast count: Int, id: UInt64) async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let waits = sleepers.withLock { $0.awaitCount(count, id: id, continuation: continuation) }
      if !waits { continuation.resume() }
    }
  }

  /// An id for ``awaitSleepers(atLeast:id:)``.
  package func reserveSleeperWaitID() -> UInt64 { sleepers.withLock { $0.reserveWaiterID() } }

  /// Resumes the task awaiting sleepers under `id`, if it still waits.
  package func abandonSleeperWait(_ id: UInt64) {
    sleepers.withLock { $0.removeCountWaiter(id) }?.resume()
  }

  /// Changes whenever a sleeper registers, wakes or is cancelled.
  var sleeperChanges: UInt64 { sleepers.withLock { $0.changes } }

  /// Moves time forward by `duration` and wakes every sleeper due by then, earliest first.
  public func advance(by duration: Duration) {
    advance(to: now.advanced(by: duration))
  }

  /// Moves time to `instant` (never backwards) and wakes every sleeper due by then, earliest
  /// deadline first, registration order within a deadline, one at a time. It does not wait for
  /// the work a woken task then does; a ``VirtualTimeRunner`` does.
  public func advance(to instant: Instant) {
    while let wake = movingTime({ $0.popFirstDue(notAfter: instant.offset) }) { wake.fire() }
    movingTime { $0.setNow(instant.offset) }
  }

  /// Moves time to the earliest deadline if it is at or before `limit`, and wakes the first
  /// sleeper due then. Returns false when no sleeper is due by `limit`. The runner's single step:
  /// it runs what the wake-up started before it takes the next one.
  func wakeEarliest(notAfter limit: Instant) -> Bool {
    guard let wake = movingTime({ $0.popFirstDue(notAfter: limit.offset) }) else { return false }
    wake.fire()
    return true
  }

  /// ``wakeEarliest(notAfter:)``, and when no sleeper is due by `limit`, the clock moved there in
  /// the same locked step: a replay moves time once per keystroke, and mostly nothing is due.
  func wakeEarliestOrMove(to limit: Instant) -> Bool {
    let wake = movingTime { state -> SleeperQueue.Wake? in
      guard let wake = state.popFirstDue(notAfter: limit.offset) else {
        state.setNow(limit.offset)
        return nil
      }
      return wake
    }
    guard let wake else { return false }
    wake.fire()
    return true
  }

  /// Schedules `action` to run when the clock reaches `deadline`, with no task: it runs on the
  /// thread that moves the time there (inside ``advance(to:)``, or the driving thread of a
  /// ``VirtualTimeRunner``), in (deadline, registration) order with the sleepers due then.
  ///
  /// Returns an id for ``cancelScheduled(_:)``, or nil, without scheduling, when `deadline` has
  /// been reached already (the caller acts at once). A scheduled call counts as a sleeper.
  /// The fused timers of the Streams operators (see `ClockWake`) use it: a debounce deadline
  /// that passes in virtual time costs a call, not a task's wake-up.
  package func schedule(at deadline: Instant, _ action: @escaping @Sendable () -> Void) -> UInt64? {
    let (id, satisfied) = sleepers.withLock { state -> (UInt64?, [UnsafeContinuation<Void, Never>]) in
      guard deadline.offset > state.now else { return (nil, []) }
      return (state.schedule(action, deadline: deadline.offset), state.takeSatisfiedCountWaiters())
    }
    for waiter in satisfied { waiter.resume() }
    return id
  }

  /// Cancels a call scheduled with ``schedule(at:_:)`` that has not run yet.
  package func cancelScheduled(_ id: UInt64) {
    sleepers.withLock { $0.cancelCallback(id) }
  }

  /// Moves time to `instant` without waking anyone (callers have woken everyone due first).
  func setNow(_ instant: Instant) {
    movingTime { $0.setNow(instant.offset) }
  }
}
