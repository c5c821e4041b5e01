// Runs blocking work (a read or write that lasts as long as a child process) on a thread of its
// own, so that it never takes a thread from the pool that Swift concurrency runs tasks on.
import Foundation

/// Blocking or long synchronous work on dedicated threads.
///
/// Useful for reads and writes on a child's pipes, which block until the child exits, and for
/// seconds of synchronous computation in a test, which would hold a task thread all along (a
/// catalog indexed in a debug build, a virtual-time replay driven synchronously, a `static let`
/// fixture whose first use every other user waits for inside `swift_once`). Not
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

  /// At most one CPU-bound body per core runs at a time: more would only share the cores, and
  /// leave the task threads, and the tests bounded in real time, a smaller share of them.
  private static let computeSlots = Slots(ProcessInfo.processInfo.activeProcessorCount)

  /// What `body` returns or throws, run as part of the calling task with its jobs on a thread
  /// of their own: for an async test body that computes for seconds between its awaits.
  ///
  /// Its `#expect`s count for the calling test, as its task-local values are the caller's. Child
  /// tasks and nonisolated async functions it calls run on that thread too; actors with
  /// executors of their own and the main actor do not (nor does a body isolated to one). At most one such body per core runs at a
  /// time: later callers wait, suspended, for a turn. Do not call it from inside another.
  ///
  /// ```swift
  /// @Test func everyNameFoldsAsTheConverterFolds() async {
  ///   await OwnThread.running {
  ///     let names = BuiltInCatalog.shared.foldedNames()  // seconds to copy in a debug build
  ///     #expect(names.words.count > 10_000)
  ///   }
  /// }
  /// ```
  public static func running<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
    await computeSlots.acquire()
    defer { computeSlots.release() }
    let executor = OwnThreadExecutor()
    defer { executor.close() }
    return try await withTaskExecutorPreference(executor) { try await body() }
  }
}
