// The task executor behind virtual time: it never runs a job by itself, it queues them, and the
// thread driving the runner runs them one at a time. That is what makes a replay deterministic.
import Dispatch
import Synchronization

/// A `TaskExecutor` that queues jobs for the thread that drives it.
///
/// Jobs may be enqueued from any thread (a continuation resumed by real I/O, say); they run only
/// inside ``runPendingJobs()``, one at a time, in the order they were enqueued.
///
/// It also counts work in flight outside virtual time (``beginExternalWork()``), so the driver
/// can wait for it, blocking, instead of moving time past an answer that is still on its way.
final class VirtualExecutor: TaskExecutor {
  private struct State {
    var jobs = FIFOQueue<UnownedJob>()
    var externalWork = 0
    /// The driver sleeps on `doorbell` and must be woken by the next job or the end of outside work.
    var driverWaits = false

    /// Whether the driver waits for a ring, clearing the flag: each wait is rung at most once.
    mutating func takeDriverWaiting() -> Bool {
      defer { driverWaits = false }
      return driverWaits
    }
  }

  private let queue = Mutex(State())
  private let doorbell = DispatchSemaphore(value: 0)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let wake = queue.withLock { state in
      state.jobs.append(job)
      return state.takeDriverWaiting()
    }
    if wake { doorbell.signal() }
  }

  /// Work that will complete outside virtual time (real I/O) has started.
  func beginExternalWork() {
    queue.withLock { $0.externalWork += 1 }
  }

  /// Work that completes outside virtual time has ended.
  func endExternalWork() {
    let wake = queue.withLock { state in
      state.externalWork -= 1
      return state.takeDriverWaiting()
    }
    if wake { doorbell.signal() }
  }

  /// When no job is queued but outside work is in flight, blocks until a job arrives or the
  /// outside work ends. Returns whether there may be jobs to run.
  func waitForExternalWork() -> Bool {
    while true {
      let mustWait = queue.withLock { state -> Bool? in
        if state.jobs.count > 0 { return nil }
        if state.externalWork == 0 { return false }
        state.driverWaits = true
        return true
      }
      guard let mustWait else { return true }
      guard mustWait else { return false }
      doorbell.wait()
    }
  }

  /// Runs queued jobs, including those they enqueue, until none is left. Returns how many ran.
  @discardableResult
  func runPendingJobs() -> Int {
    var ran = 0
    while let job = queue.withLock({ $0.jobs.popFirst() }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
      ran += 1
    }
    return ran
  }

  /// How many jobs wait to run.
  var pendingJobCount: Int { queue.withLock { $0.jobs.count } }
}
