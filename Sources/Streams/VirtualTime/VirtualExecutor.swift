// The task executor behind virtual time: it never runs a job by itself, it queues them, and the
// thread driving the runner runs them one at a time. That is what makes a replay deterministic.
import Synchronization

/// A `TaskExecutor` that queues jobs for the thread that drives it.
///
/// Jobs may be enqueued from any thread (a continuation resumed by real I/O, say); they run only
/// inside ``runPendingJobs()``, one at a time, in the order they were enqueued.
final class VirtualExecutor: TaskExecutor {
  private let queue = Mutex(JobQueue())

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.withLock { $0.append(job) }
  }

  /// Runs queued jobs, including those they enqueue, until none is left. Returns how many ran.
  @discardableResult
  func runPendingJobs() -> Int {
    var ran = 0
    while let job = queue.withLock({ $0.popFirst() }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
      ran += 1
    }
    return ran
  }

  /// How many jobs wait to run.
  var pendingJobCount: Int { queue.withLock { $0.count } }
}

/// A FIFO of jobs: an array with a moving head, compacted when the head passes half of it.
private struct JobQueue {
  private var jobs: [UnownedJob] = []
  private var head = 0

  var count: Int { jobs.count - head }

  mutating func append(_ job: UnownedJob) { jobs.append(job) }

  mutating func popFirst() -> UnownedJob? {
    guard head < jobs.count else { return nil }
    let job = jobs[head]
    head += 1
    if head == jobs.count {
      jobs.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 1_024, head * 2 > jobs.count {
      jobs.removeFirst(head)
      head = 0
    }
    return job
  }
}
