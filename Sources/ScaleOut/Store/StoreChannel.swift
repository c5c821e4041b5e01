// A thread of its own with one reconnecting connection to Redis, running the jobs handed to it in
// order: the shared store's reads and budget rounds on one, its writes on another, so that no
// task of the pipeline ever waits on a socket on a cooperative thread.
import Foundation
import LineIO
import RESP
import Streams
import Synchronization

final class StoreChannel: Sendable {
  /// A job, run on the channel's thread with its link.
  typealias Job = @Sendable (RedisLink) -> Void

  private final class Queue: Sendable {
    let jobs = Mutex<[Job]>([])
  }

  private let queue = Queue()
  private let arrived: WakePipe
  private let stop: CancellationSignal

  init(endpoint: RedisEndpoint, options: RESPConnection.Options, name: String) throws {
    arrived = try WakePipe()
    stop = try CancellationSignal()
    let thread = Thread { [queue, arrived, stop] in
      let link = RedisLink(endpoint: endpoint, options: options, stop: stop, loadsScripts: false, notice: { _ in })
      let clock = ContinuousClock()
      defer { link.close() }
      while true {
        let batch = queue.jobs.withLock { jobs -> [Job] in
          defer { jobs.removeAll() }
          return jobs
        }
        if batch.isEmpty {
          if stop.isSignalled { return }
          arrived.wait(timeout: .seconds(1), clock: clock, stop: stop)
          continue
        }
        // Jobs left when stopped still run: each fails at once on the stopped link, so that
        // every caller waiting for one is answered.
        for job in batch { job(link) }
      }
    }
    thread.name = name
    thread.start()
  }

  /// Hands `job` to the thread; returns at once.
  func submit(_ job: @escaping Job) {
    queue.jobs.withLock { $0.append(job) }
    arrived.signal()
  }

  /// Runs `body` on the thread and returns what it returned.
  func run<T: Sendable>(_ body: @escaping @Sendable (RedisLink) -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
      submit { link in continuation.resume(returning: body(link)) }
    }
  }

  /// Ends the thread once the jobs handed over so far have run (failing fast: the link is
  /// stopped).
  func close() {
    stop.signal()
    arrived.signal()
  }
}
