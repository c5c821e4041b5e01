// Runs blocking work (a read or write that lasts as long as a child process) on a thread of its
// own, so that it never takes a thread from the pool that Swift concurrency runs tasks on.
import Foundation

/// Blocking or long synchronous work on dedicated threads.
///
/// Useful for reads and writes on a child's pipes, which block until the child exits, and for
/// seconds of synchronous computation in a test, which would hold a task thread all along. Not
/// `DispatchQueue.global()`: on Linux its threads are the very threads tasks run on (the default
/// QoS root queue), and libdispatch adds a worker beyond two per core only when none is runnable,
/// so on a 2-core machine three blocked reads leave every test in the process one thread to share.
/// That is what stalled the in-process URLSession tests for a minute at a time.
///
/// ```swift
/// let done = DispatchGroup()
/// OwnThread.run(in: done) { output.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
/// done.notify(queue: .global()) { continuation.resume() }
/// ```
public enum OwnThread {
  /// Starts `work` on a new thread at once and enters `group` until it returns.
  public static func run(in group: DispatchGroup, _ work: @escaping @Sendable () -> Void) {
    group.enter()
    Thread.detachNewThread {
      work()
      group.leave()
    }
  }

  /// What `work` returns or throws, computed on a new thread while the caller is suspended.
  ///
  /// The thread runs at the process's own priority. (It once ran at nice 19, so that a child's
  /// 100 ms exit bound would not wait behind a replay for a CPU; that bound is the benchmark's
  /// now, and at nice 19 a replay on a loaded machine, or beside two CPU hogs, got so little CPU
  /// that its virtual-time runner's 60 s watchdog fired.) Cancelling the caller does not stop
  /// `work`: keep it bounded.
  public static func value<T: Sendable>(of work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
  }
}
