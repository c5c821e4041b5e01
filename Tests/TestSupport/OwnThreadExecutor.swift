// A task executor with one thread of its own: the jobs of an async test body that computes for
// seconds run there, so that the body never holds one of the few threads every other test shares.
import Foundation
import Synchronization

/// Runs the jobs enqueued on it, one at a time, on a thread it starts; once closed, it lets its
/// thread end and hands later jobs (a task started inside that outlived the body) to the global
/// concurrent executor, so that no job is ever left unrun.
final class OwnThreadExecutor: TaskExecutor, Sendable {
  private let state = Mutex<(jobs: [UnownedJob], open: Bool)>(([], true))
  /// Rung once per job queued and once for the close, so the thread sleeps while there is nothing.
  private let doorbell = DispatchSemaphore(value: 0)

  init() {
    Thread.detachNewThread { [self] in runJobs() }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let queued = state.withLock { state -> Bool in
      guard state.open else { return false }
      state.jobs.append(job)
      return true
    }
    if queued {
      doorbell.signal()
    } else {
      globalConcurrentExecutor.enqueue(ExecutorJob(job))
    }
  }

  /// Lets the thread end once it has run every job queued so far.
  func close() {
    state.withLock { $0.open = false }
    doorbell.signal()
  }

  private func runJobs() {
    while true {
      doorbell.wait()
      let next = state.withLock { state -> UnownedJob? in
        state.jobs.isEmpty ? nil : state.jobs.removeFirst()
      }
      // Only the close rings without a job, and it rings after every job queued before it.
      guard let next else { return }
      next.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// At most `count` holders at a time; the others wait, suspended, in the order they came.
final class Slots: Sendable {
  private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

  init(_ count: Int) {
    state = Mutex((max(1, count), []))
  }

  func acquire() async {
    await withCheckedContinuation { continuation in
      let granted = state.withLock { state -> Bool in
        guard state.free > 0 else {
          state.waiting.append(continuation)
          return false
        }
        state.free -= 1
        return true
      }
      if granted { continuation.resume() }
    }
  }

  func release() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiting.isEmpty else {
        state.free += 1
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}
