// Deterministic virtual time: async code runs one job at a time, and time jumps to the next
// deadline only when nothing can run. The same input gives the same output, event for event,
// on every run and every machine, main-actor code included.
import Dispatch
import Synchronization

/// Runs async code in virtual time, deterministically.
///
/// Useful for testing anything that waits on a clock (debounce, timeouts, retries, simulated
/// latency) in exact milliseconds, `@MainActor` view models included, and for replaying
/// recorded input faster than real time.
///
/// Tasks started with ``start(_:)`` or ``run(_:)`` prefer the runner's task executor, so their
/// jobs, and those of their child tasks, task groups and default actors, are queued for the
/// runner and run one at a time. Time is ``clock``, a ``ManualClock``: it moves only when the
/// runner is driven.
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let clock = runner.clock
/// let (input, feed) = AsyncStream.makeStream(of: String.self)
/// let seen = Recorder<String>()               // StreamsTesting
/// let task = runner.start {
///   for try await text in input.debounce(for: .milliseconds(300), clock: clock) { seen.append(text) }
/// }
/// feed.yield("tay")
/// runner.advance(to: .milliseconds(299))      // seen.values == []
/// runner.advance(to: .milliseconds(300))      // seen.values == ["tay"]
/// feed.finish()
/// try runner.finish(task)
/// ```
///
/// From `@MainActor` code (a `@MainActor` test of a view model), use the `async` forms,
/// `drive(until:)`, `drive(for:)`, `drive()`, `drive(_:)`: they drive the runner from another
/// thread while the main actor is free to run the model's jobs.
///
/// ## Ordering
/// - Driving first runs every queued job, and every job those enqueue, until none is left
///   (quiescence). Only then may time move, to the earliest sleeper's deadline. The sleepers
///   due at that instant wake one at a time, in the order they registered, and each wake-up's
///   work runs to quiescence before the next sleeper wakes (kotlinx-coroutines-test's FIFO by
///   registration within an instant): a task's sleep and a scheduled call are alike here.
/// - ``advance(to:)`` is inclusive: a deadline equal to the target instant fires.
/// - Main-actor jobs (see ``MainActorOrdering`` for when): with a call made off the main queue,
///   the runner's jobs and its clock's wake-ups run on the main queue, in blocks between the
///   main actor's own jobs, so both kinds run on one thread in one first-in-first-out order.
///   Time moves only after two blocks in a row during which the runner saw nothing happen (no
///   job enqueued, no sleeper registered, woken or cancelled, no outside work begun or ended):
///   a main-actor job that only schedules another main-actor job still runs before time moves.
///   A longer chain of main-actor jobs that the runner cannot see (each only schedules the next,
///   `Task.yield()` on the main actor in a loop) may still be running when time moves.
///
/// ## What escapes it
/// Work that neither runs on the runner's executor nor on the main actor is not ordered:
/// actors with custom executors, `Task.detached`, and real I/O completing on other threads.
/// Unstructured tasks started with `Task(inheritingExecutor:)` stay on the runner. A plain
/// `Task {}` started from a task on the runner, or from a test body in
/// ``hosting(isolation:_:)``, keeps the runner's executor preference on Swift 6.3.1 (a test
/// checks it), which SE-0417 does not promise; one started where no such task is current (a
/// block the main queue runs by itself) has no preference, and what it awaits off its actor
/// runs on the global pool: its sleeps on ``clock`` are counted in
/// ``sleepsFromOutsideTheRun``. Mark real I/O with ``withExternalWork(_:)``, so the runner
/// waits for it instead of moving time past it.
///
/// ## Bounds
/// No driving call hangs. ``finish(_:)`` and ``run(_:)`` throw ``VirtualTimeStall`` when
/// nothing can run and nobody sleeps, and when the next deadline lies more than `horizon`
/// (1 hour by default) after the call began: an endless timer loop. Every driving call stops
/// after `watchdog` (60 s by default) of real time. The non-throwing calls (``advance(to:)``,
/// ``runUntilIdle()``) keep the reason in ``interruption`` instead; the next `finish` or
/// `run` throws it.
///
/// ## Caveats
/// Drive a runner from one thread at a time. The synchronous driving calls block their thread;
/// made on the main thread, they cannot let main-actor jobs run until they return.
public final class VirtualTimeRunner: Sendable {
  /// The runner's clock. Hand it to the code under test.
  public let clock: ManualClock
  /// How much virtual time one `finish` or `run` may cover before it throws; nil for no limit.
  public let horizon: Duration?
  /// How much real time one driving call may take before it stops; nil for no limit.
  public let watchdog: Duration?
  /// When main-actor jobs are ordered with the runner's (see Ordering).
  public let mainActorOrdering: MainActorOrdering
  let executor: VirtualExecutor
  private let stopped = Mutex<VirtualTimeStall?>(nil)

  /// Creates a runner whose clock starts at `now`.
  ///
  /// - Parameters:
  ///   - now: the instant the clock starts at (its zero by default).
  ///   - horizon: the virtual time one ``finish(_:)`` or ``run(_:)`` may cover; nil for none.
  ///   - watchdog: the real time one driving call may take; nil for none.
  ///   - mainActorOrdering: when main-actor jobs are ordered with the runner's.
  public init(
    now: ManualClock.Instant = .zero, horizon: Duration? = .seconds(3_600),
    watchdog: Duration? = .seconds(60), mainActorOrdering: MainActorOrdering = .onceSeen
  ) {
    self.horizon = horizon
    self.watchdog = watchdog
    self.mainActorOrdering = mainActorOrdering
    executor = VirtualExecutor(watchesMainQueue: mainActorOrdering == .onceSeen)
    clock = ManualClock(now: now, runner: executor)
  }

  /// The main-actor ordering for a runner that the calling thread drives synchronously from its
  /// start to its end (a replay). On the main queue, main-actor jobs cannot run before such a drive
  /// returns, whatever the ordering, so ordering them would change nothing but the cost: the first
  /// job, enqueued from the main queue, would mark main-actor code seen, and every idle point
  /// would then take a full drive. Elsewhere, the default.
  package static var orderingForSynchronousDriveFromHere: MainActorOrdering {
    MainQueue.isCurrent ? .never : .onceSeen
  }

  /// Whether this runner now orders main-actor jobs with its own.
  var ordersMainActor: Bool {
    switch mainActorOrdering {
    case .always: true
    case .onceSeen: executor.mainActorSeen.load(ordering: .acquiring)
    case .never: executor.hostsBody.load(ordering: .acquiring)
    }
  }

  /// Main-actor code takes part: order its jobs from now on (``MainActorOrdering/onceSeen``).
  func noteMainActorSeen() { executor.mainActorSeen.store(true, ordering: .releasing) }

  /// The current virtual time.
  public var now: ManualClock.Instant { clock.now }

  /// How many jobs wait to run; zero whenever a driving call has returned, unless other threads
  /// enqueued work since.
  public var pendingJobCount: Int { executor.pendingJobCount }

  /// How many jobs the runner has run since it was created: a measure of how much task machinery
  /// the code under test costs (a fused operator chain costs none per element).
  package var jobCount: Int { executor.jobsRun }

  /// Runs `body` on this thread as part of the run: tasks it starts with
  /// `Task(inheritingExecutor:)`, and the operators' own tasks, run on the runner, as they do
  /// when started from the runner's jobs. For code that feeds a pushed operator chain from the
  /// driving thread (a replay): the chain may start a task when an element arrives.
  package func onRunner<T>(_ body: () throws -> T) rethrows -> T {
    // Binding a task-local is a measurable cost on a replay's hot path: skip it when this
    // thread runs as part of the run already (the driver wraps its whole loop in one call).
    if InheritedExecutor.preferred === executor { return try body() }
    return try InheritedExecutor.$preferred.withValue(executor) { try body() }
  }

  /// Why the last non-throwing driving call stopped before its work was done, if it did; nil
  /// otherwise. The next ``finish(_:)`` or ``run(_:)`` throws it and clears it.
  public var interruption: VirtualTimeStall? { stopped.withLock { $0 } }

  /// Starts `body` as a task on the runner. It runs only when the runner is driven.
  @discardableResult
  public func start<Result: Sendable>(
    _ body: @escaping @Sendable () async throws -> Result
  ) -> VirtualTask<Result> {
    let outcome = VirtualTask<Result>.Outcome()
    let task = Task(executorPreference: executor) { [executor] in
      do {
        let value = try await InheritedExecutor.$preferred.withValue(executor) { try await body() }
        outcome.state.withLock { $0 = .finished(.success(value)) }
      } catch {
        outcome.state.withLock { $0 = .finished(.failure(error)) }
      }
    }
    return VirtualTask(outcome: outcome, task: task)
  }

  /// Runs jobs until none is left, without moving time. Work marked with
  /// ``withExternalWork(_:)`` that is still in flight is waited for, blocking.
  public func runUntilIdle() {
    // Nothing queued, nothing in flight, nothing to hand to the main queue: already idle. The
    // common case between a replay's lines, which then costs two locked reads.
    if isIdle { return }
    keepingInterruption { drive throws(VirtualTimeStall) in try settle(drive) }
  }

  /// From any thread: work marked with ``withExternalWork(_:)`` is no longer waited for, and a
  /// driving call blocked waiting for it returns now. For a run being torn down (a stop request
  /// while an answer from the network is on its way): the caller then cancels its task and
  /// finishes it. Answers that still come are queued as jobs and run if the runner is driven.
  package func stopWaitingForExternalWork() {
    executor.stopWaitingForExternalWork()
  }

  /// Whether a settle would do nothing: no job queued, no outside work in flight, and main-actor
  /// jobs not ordered (their queue is not visible from here).
  private var isIdle: Bool {
    !ordersMainActor && executor.isQuiet
  }

  /// Runs everything due up to and including `instant`, moving time deadline by deadline, and
  /// leaves the clock at `instant`.
  public func advance(to instant: ManualClock.Instant) {
    advance(to: instant, fromRunner: false)
  }

  /// ``advance(to:)`` for a caller that runs as part of the run already, inside
  /// ``onRunner(_:)`` (a replay's driving loop): asking the task-local that tells so was a
  /// visible part of a replay's cost per keystroke.
  package func advanceFromRunner(to instant: ManualClock.Instant) {
    advance(to: instant, fromRunner: true)
  }

  private func advance(to instant: ManualClock.Instant, fromRunner: Bool) {
    // Idle: each wake-up due by then is made here, one at a time, as a drive makes it, for as long
    // as it leaves the runner idle (a fused timer's call does its work inline); then moving time is
    // all there is to do. What leaves work behind continues in a full drive, which settles first,
    // as it would have after that wake-up. A replay fires a timer every keystroke or two: starting
    // a drive for each (a real-time deadline, a main-thread check) was a visible part of its cost.
    let wakeWhileIdle = {
      while self.isIdle {
        guard self.clock.wakeEarliestOrMove(to: instant) else { return true }
      }
      return false
    }
    if fromRunner ? wakeWhileIdle() : onRunner(wakeWhileIdle) { return }
    keepingInterruption { drive throws(VirtualTimeStall) in
      try settle(drive)
      while try drive.step({ [clock] in clock.wakeEarliest(notAfter: instant) }) {
        try settle(drive)
      }
      clock.setNow(instant)
      try settle(drive)
    }
  }

  /// Runs everything due within `duration` from now; see ``advance(to:)``.
  public func advance(by duration: Duration) {
    advance(to: now.advanced(by: duration))
  }

  /// Runs `task` to its end, moving time to each next deadline whenever nothing can run.
  ///
  /// - Returns: what the task's body returned.
  /// - Throws: what the body threw, or ``VirtualTimeStall`` when the run cannot finish: nothing
  ///   can run and nobody sleeps (it waits for something that can never happen in virtual
  ///   time), the next deadline is past the horizon, or the watchdog fired. An ``interruption``
  ///   left by an earlier call is thrown first.
  public func finish<Result: Sendable>(_ task: VirtualTask<Result>) throws -> Result {
    if let earlier = stopped.withLock({ state in
      defer { state = nil }
      return state
    }) {
      throw earlier
    }
    let drive = Drive(runner: self)
    let limit = horizon.map { clock.now.advanced(by: $0) }
    while true {
      try settle(drive)
      if let result = task.result { return try result.get() }
      guard let next = clock.nextDeadline else {
        if try mainQueueHadWork(drive) { continue }
        throw drive.stall(.nothingToRun)
      }
      if let limit, let horizon, next > limit { throw drive.stall(.horizonReached(horizon)) }
      _ = try drive.step { [clock] in clock.wakeEarliest(notAfter: next) }
    }
  }

  /// Starts `body` on the runner and runs it to its end in virtual time; see ``finish(_:)``.
  @discardableResult
  public func run<Result: Sendable>(
    _ body: @escaping @Sendable () async throws -> Result
  ) throws -> Result {
    try finish(start(body))
  }

  /// Before reporting a stall while main-actor jobs are not yet ordered: lets the main queue run
  /// once and tells whether that gave the runner something to do, and if so orders main-actor
  /// jobs from now on.
  private func mainQueueHadWork(_ drive: Drive) throws(VirtualTimeStall) -> Bool {
    guard mainActorOrdering == .onceSeen, !drive.onMainThread else { return false }
    // A main-actor job runs on the main queue in parallel with the driver until main-actor jobs
    // are ordered, so it can hop back here after the settle looked for work: main-actor code has
    // been seen then, and what it enqueued is still to run.
    if ordersMainActor { return executor.pendingJobCount > 0 }
    let before = activity
    _ = try drive.step(onMainQueue: true) { 0 }
    guard activity != before || executor.pendingJobCount > 0 else { return false }
    noteMainActorSeen()
    return true
  }

  /// Runs a non-throwing driving call, keeping the reason it stopped early, if any.
  private func keepingInterruption(_ body: (Drive) throws(VirtualTimeStall) -> Void) {
    do throws(VirtualTimeStall) {
      try body(Drive(runner: self))
    } catch {
      stopped.withLock { $0 = error }
    }
  }

  /// Runs jobs (and waits for outside work) until the runner is idle; see Ordering.
  private func settle(_ drive: Drive) throws(VirtualTimeStall) {
    // Nothing queued and no outside work awake, off the main queue: settled already, at the cost
    // of one locked read. The common case after a replay's timer, which ran its work inline.
    if !drive.onMainQueue, executor.isQuiet { return }
    var quietRounds = 0
    // Counted only when main-actor jobs are ordered: off the main queue it is never read.
    var lastActivity = drive.onMainQueue ? activity : 0
    while true {
      let ran = try drive.step { [executor] in executor.runPendingJobs(until: drive.deadline) }
      // Only running jobs takes real time here (a wait for outside work has its own deadline).
      if ran > 0 { try drive.checkWatchdog() }
      if executor.pendingJobCount > 0 { continue }
      switch executor.waitForExternalWork(deadline: drive.deadline) {
      case .jobsMayRun: continue
      case .timedOut: throw drive.stall(.watchdogFired(watchdog ?? .zero))
      case .nothingInFlight: break
      }
      guard drive.onMainQueue else { return }
      let current = activity
      if ran > 0 || current != lastActivity {
        quietRounds = 0
      } else {
        quietRounds += 1
        if quietRounds == 2 { return }
      }
      lastActivity = current
    }
  }

  /// Changes whenever a job is enqueued, a sleeper comes or goes, or outside work changes.
  private var activity: UInt64 { executor.activity &+ clock.sleeperChanges }
}
