// The task executor behind virtual time: it never runs a job by itself, it queues them, and the
// thread driving the runner runs them one at a time. That is what makes a replay deterministic.
// While it hosts a test body, jobs that come between driving calls run on the main queue.
import Dispatch
import Synchronization

/// A `TaskExecutor` that queues jobs for the thread that drives it.
///
/// Jobs may be enqueued from any thread (a continuation resumed by real I/O, say); they run only
/// inside ``runPendingJobs(until:)``, one at a time, in the order they were enqueued.
///
/// It also counts work in flight outside virtual time (``beginExternalWork()``), so the driver
/// can wait for it, blocking, instead of moving time past an answer that is still on its way.
/// Outside work that is asleep on a `ManualClock` is not waited for: only the runner can wake it.
///
/// While it hosts a test body (`VirtualTimeRunner.hosting(_:)`), a job enqueued when no driving call is under way
/// is run by a block on the main queue, between the main actor's jobs, as a driving call's steps
/// run them: the body's own awaits off the main actor complete, and time still moves only when
/// the runner is driven.
final class VirtualExecutor: TaskExecutor {
  private struct State {
    var jobs = FIFOQueue<UnownedJob>()
    /// Jobs run so far (the benchmark's and tests' measure of task machinery).
    var jobsRun = 0
    var externalWork = 0
    /// Outside work now asleep on a manual clock: virtual, so not waited for.
    var externalWorkAsleep = 0
    /// Bumped by every enqueue and every change of outside work: the driver compares it across
    /// a main-queue round to tell whether anything happened.
    var activity: UInt64 = 0
    /// The driver sleeps on `doorbell` and must be woken by the next job or the end of outside work.
    var driverWaits = false
    /// Outside work is no longer waited for (``stopWaitingForExternalWork()``).
    var externalWorkAbandoned = false
    /// How many test bodies this executor hosts (`VirtualTimeRunner.hosting(_:)`).
    var hostedBodies = 0
    /// How many async driving calls are under way: their steps run the jobs, not main-queue blocks.
    var drivingCalls = 0
    /// A block that runs jobs is on the main queue, waiting or running.
    var mainQueueBlockScheduled = false
    /// Sleeps on the runner's clock by tasks that do not prefer this executor.
    var sleepsFromOutsideTheRun = 0

    var externalWorkAwake: Int { externalWork - externalWorkAsleep }

    /// Whether to put a block that runs the queued jobs on the main queue, marking it scheduled:
    /// hosting, no driving call under way, a job queued and no such block scheduled already.
    mutating func takeMainQueueBlock() -> Bool {
      guard hostedBodies > 0, drivingCalls == 0, !mainQueueBlockScheduled, jobs.count > 0 else { return false }
      mainQueueBlockScheduled = true
      return true
    }

    /// No job is queued and no outside work is awake and waited for.
    var isQuiet: Bool { jobs.count == 0 && (externalWorkAwake <= 0 || externalWorkAbandoned) }

    /// Whether the driver waits for a ring, clearing the flag: each wait is rung at most once.
    mutating func takeDriverWaiting() -> Bool {
      defer { driverWaits = false }
      return driverWaits
    }
  }

  /// What ``waitForExternalWork(deadline:)`` found.
  enum ExternalWait {
    /// A job is queued: run it.
    case jobsMayRun
    /// No outside work is awake, or it is no longer waited for.
    case nothingInFlight
    /// The deadline passed with outside work still in flight.
    case timedOut
  }

  private let queue = Mutex(State())
  /// ``State/isQuiet`` as the last change under the lock left it, for ``isQuiet`` to read without
  /// the lock: a replay asks after every keystroke and every timer's call, and is almost always
  /// answered yes. Stored under the lock, so its stores come in the order of the changes.
  private let quiet = Atomic(true)
  private let doorbell = DispatchSemaphore(value: 0)
  /// Whether a test body is hosted (`hostedBodies` is above zero), readable without the
  /// lock: the runner then orders main-actor jobs, whatever its `MainActorOrdering`.
  let hostsBody = Atomic(false)
  /// Whether to watch for jobs enqueued from the main queue (``MainActorOrdering/onceSeen``).
  private let watchesMainQueue: Bool
  /// Whether a job came from the main queue: main-actor code takes part in the run.
  let mainActorSeen = Atomic(false)

  init(watchesMainQueue: Bool) { self.watchesMainQueue = watchesMainQueue }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    // Main-actor code hopping back onto the runner enqueues from the main queue. Checked only
    // until seen, so a run without main-actor code pays one check per job, and no more after.
    if watchesMainQueue, !mainActorSeen.load(ordering: .relaxed), MainQueue.isCurrent {
      mainActorSeen.store(true, ordering: .releasing)
    }
    let (wake, runOnMainQueue) = queue.withLock { state in
      state.jobs.append(job)
      state.activity &+= 1
      quiet.store(false, ordering: .releasing)
      return (state.takeDriverWaiting(), state.takeMainQueueBlock())
    }
    if wake { doorbell.signal() }
    if runOnMainQueue { runJobsOnMainQueue() }
  }

  /// Work that will complete outside virtual time (real I/O) has started.
  func beginExternalWork() {
    queue.withLock {
      $0.externalWork += 1
      $0.activity &+= 1
      quiet.store($0.isQuiet, ordering: .releasing)
    }
  }

  /// Work that completes outside virtual time has ended.
  func endExternalWork() {
    changeExternalWork { $0.externalWork -= 1 }
  }

  /// Outside work went to sleep on a manual clock (`true`) or woke from it (`false`).
  func externalWorkSleeps(_ asleep: Bool) {
    changeExternalWork { $0.externalWorkAsleep += asleep ? 1 : -1 }
  }

  private func changeExternalWork(_ change: (inout State) -> Void) {
    let wake = queue.withLock { state in
      change(&state)
      state.activity &+= 1
      quiet.store(state.isQuiet, ordering: .releasing)
      return state.takeDriverWaiting()
    }
    if wake { doorbell.signal() }
  }

  /// From any thread: outside work in flight is not waited for any more, and a wait for it ends
  /// now. Its answers, if they come, are queued as jobs like any other.
  func stopWaitingForExternalWork() {
    let wake = queue.withLock { state in
      state.externalWorkAbandoned = true
      state.activity &+= 1
      quiet.store(state.isQuiet, ordering: .releasing)
      return state.takeDriverWaiting()
    }
    if wake { doorbell.signal() }
  }

  /// When no job is queued but outside work is in flight and awake, blocks until a job arrives,
  /// the outside work ends or falls asleep on a manual clock, `deadline` passes, or
  /// ``stopWaitingForExternalWork()`` is called.
  func waitForExternalWork(deadline: DispatchTime) -> ExternalWait {
    while true {
      let mustWait = queue.withLock { state -> Bool? in
        if state.jobs.count > 0 { return nil }
        if state.externalWorkAwake <= 0 || state.externalWorkAbandoned { return false }
        state.driverWaits = true
        return true
      }
      guard let mustWait else { return .jobsMayRun }
      guard mustWait else { return .nothingInFlight }
      if doorbell.wait(timeout: deadline) == .timedOut {
        // Take back the request to be rung; if a ring raced the timeout, consume it.
        let rung = !queue.withLock { $0.takeDriverWaiting() }
        if rung { doorbell.wait() }
        return .timedOut
      }
    }
  }

  /// Runs queued jobs, including those they enqueue, until none is left or `deadline` has
  /// passed (checked every 256 jobs). Returns how many ran.
  @discardableResult
  func runPendingJobs(until deadline: DispatchTime = .distantFuture) -> Int {
    var ran = 0
    while let job = queue.withLock({ state -> UnownedJob? in
      let job = state.jobs.popFirst()
      quiet.store(state.isQuiet, ordering: .releasing)
      return job
    }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
      ran += 1
      if ran & 255 == 0, DispatchTime.now() >= deadline { break }
    }
    if ran > 0 { queue.withLock { $0.jobsRun += ran } }
    return ran
  }

  /// A test body is hosted until the matching ``endHosting()``: jobs enqueued between driving
  /// calls run on the main queue.
  func beginHosting() { changeHosting { $0.hostedBodies += 1 } }

  /// The body hosted by the matching ``beginHosting()`` has returned.
  func endHosting() { changeHosting { $0.hostedBodies -= 1 } }

  /// An async driving call starts: its own steps run the jobs until the matching ``endDriving()``.
  func beginDriving() { changeHosting { $0.drivingCalls += 1 } }

  /// The async driving call has ended; jobs enqueued since run on the main queue, if hosting.
  func endDriving() { changeHosting { $0.drivingCalls -= 1 } }

  private func changeHosting(_ change: (inout State) -> Void) {
    let runOnMainQueue = queue.withLock { state in
      change(&state)
      hostsBody.store(state.hostedBodies > 0, ordering: .releasing)
      return state.takeMainQueueBlock()
    }
    if runOnMainQueue { runJobsOnMainQueue() }
  }

  /// How many jobs one main-queue block runs at most before it lets the main actor's jobs queued
  /// meanwhile run: a task that only yields would otherwise hold the main queue for ever.
  private static let mainQueueBatch = 4_096

  /// Puts a block on the main queue that runs queued jobs, one at a time, in order, until none
  /// is left, a driving call starts (its steps run them from then on, as on a runner that hosts
  /// nothing) or the batch is done (another block continues).
  private func runJobsOnMainQueue() {
    DispatchQueue.main.async { [self] in
      var ran = 0
      while let job = nextJobForMainQueueBlock(ran: ran) {
        job.runSynchronously(on: asUnownedTaskExecutor())
        ran += 1
      }
    }
  }

  /// The next job for the main-queue block that has run `ran`, or nil when it stops there.
  private func nextJobForMainQueueBlock(ran: Int) -> UnownedJob? {
    let (job, again) = queue.withLock { state -> (UnownedJob?, Bool) in
      guard state.hostedBodies > 0, state.drivingCalls == 0, ran < Self.mainQueueBatch,
        let job = state.jobs.popFirst()
      else {
        state.jobsRun += ran
        state.mainQueueBlockScheduled = false
        return (nil, state.takeMainQueueBlock())
      }
      quiet.store(state.isQuiet, ordering: .releasing)
      return (job, false)
    }
    if again { runJobsOnMainQueue() }
    return job
  }

  /// Whether the current task prefers this executor: its nonisolated work runs here.
  var isPreferredByCurrentTask: Bool {
    let mine = asUnownedTaskExecutor()
    return withUnsafeCurrentTask { $0?.unownedTaskExecutor == mine }
  }

  /// A task that does not prefer this executor sleeps on the runner's clock.
  func noteSleepFromOutsideTheRun() { queue.withLock { $0.sleepsFromOutsideTheRun += 1 } }

  /// How many sleeps on the runner's clock came from tasks that do not prefer this executor.
  var sleepsFromOutsideTheRun: Int { queue.withLock { $0.sleepsFromOutsideTheRun } }

  /// How many jobs wait to run.
  var pendingJobCount: Int { queue.withLock { $0.jobs.count } }

  /// No job is queued and no outside work is awake: nothing can run until time moves.
  var isQuiet: Bool { quiet.load(ordering: .acquiring) }

  /// How many jobs have run so far.
  var jobsRun: Int { queue.withLock { $0.jobsRun } }

  /// Outside work in flight that the runner waits for (not asleep on a manual clock).
  var externalWorkInFlight: Int { queue.withLock { $0.externalWorkAwake } }

  /// A counter that changes whenever a job is enqueued or outside work changes.
  var activity: UInt64 { queue.withLock { $0.activity } }
}
