// A child process the test talks to while it runs: writes lines to its stdin, waits for a line
// on its stdout, sends it a signal. Synchronises on data, never on time.
import Foundation
import Synchronization

/// The built binary running with pipes the test holds.
public final class RunningProcess: Sendable {
  private let child: ChildProcess
  private let input: FileHandle
  private let output = Mutex<[String]>([])
  private let waiters = Mutex<[(String, CheckedContinuation<Void, Never>)]>([])
  /// Set once standard output has ended, before the waiters still registered are resumed.
  private let ended = Mutex(false)
  private let readerDone = DispatchGroup()

  /// Starts `executable` with `arguments`, with a cache directory of its own (``IsolatedCache``);
  /// its standard error goes to /dev/null.
  ///
  /// - Throws: ``SpawnError`` when the child cannot be started.
  public init(_ executable: URL, arguments: [String]) throws {
    Subprocess.ignoreSIGPIPE()
    let stdin = try ChildPipe.toChild()
    let stdout = try ChildPipe.fromChild()
    defer {
      stdin.closeChildEnd()
      stdout.closeChildEnd()
    }
    input = stdin.handle
    let reading = stdout.handle
    child = try ChildProcess(
      executable.path, arguments: arguments, environment: IsolatedCache.environment(),
      standardInput: stdin.forChild, standardOutput: stdout.forChild,
      standardError: .nullDevice)
    readerDone.enter()
    Thread.detachNewThread { [self] in
      var pending = Data()
      while true {
        let chunk = reading.availableData
        if chunk.isEmpty { break }
        pending.append(chunk)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
          pending.removeSubrange(pending.startIndex...newline)
          received(line)
        }
      }
      ended.withLock { $0 = true }
      resumeAllWaiters()
      readerDone.leave()
    }
  }

  /// Every stdout line so far.
  public var lines: [String] { output.withLock { $0 } }

  /// Writes `text` to the child's stdin.
  public func write(_ text: String) {
    Subprocess.writeAll(Data(text.utf8), to: input.fileDescriptor)
  }

  /// Writes `data` to the child's stdin on a thread of its own, and returns once all of it is
  /// written (or the child stopped reading): a large input never blocks a task thread.
  public func write(_ data: Data) async {
    let descriptor = input.fileDescriptor
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        Subprocess.writeAll(data, to: descriptor)
        continuation.resume()
      }
    }
  }

  /// The child's process id (for reading /proc/<pid>/status while it runs).
  public var processIdentifier: Int32 { child.processIdentifier }

  /// Closes the child's stdin.
  public func closeInput() { try? input.close() }

  /// Returns once a stdout line contains `fragment` (or stdout ended).
  public func waitForLine(containing fragment: String) async {
    await withCheckedContinuation { continuation in
      let ready = output.withLock { lines in lines.contains { $0.contains(fragment) } }
      if ready {
        continuation.resume()
        return
      }
      waiters.withLock { $0.append((fragment, continuation)) }
      // The line may have arrived, or the output ended, between the check and the registration.
      if output.withLock({ $0.contains { $0.contains(fragment) } }) { resumeWaiters(for: nil) }
      if ended.withLock({ $0 }) { resumeAllWaiters() }
    }
  }

  /// Whether a stdout line contains `fragment` within `bound` of real time: returns as soon as
  /// one does (or stdout ends), and `false` once `bound` has passed without one, for a test that
  /// must fail rather than hang when the line never comes.
  public func waitForLine(containing fragment: String, within bound: Duration) async -> Bool {
    _ = await resultOf({ await self.waitForLine(containing: fragment) }, within: bound)
    return lines.contains { $0.contains(fragment) }
  }

  /// Sends `signal` to the child (nothing once it has exited).
  public func send(_ signal: Int32) { child.signal(signal) }

  /// Sends `signal` and waits for the child to exit, at most `bound` of real time (a child still
  /// running then is killed with SIGKILL, status 9), and for its stdout to end: its exit status,
  /// and how long after the signal it exited, as this process saw it.
  public func signal(_ signal: Int32, waitingAtMost bound: Duration) async -> (status: Int32, elapsed: Duration) {
    let start = ContinuousClock.now
    let (exit, _) = await child.signal(signal, waitingAtMost: bound)
    let elapsed = start.duration(to: .now)
    _ = await waitForExit()
    return (exit.status, elapsed)
  }

  /// Waits for the child to exit and for its stdout to end; returns its exit status (the
  /// signal's number when a signal killed it).
  public func waitForExit() async -> Int32 {
    let exit = await child.waitForExit()
    await withCheckedContinuation { continuation in
      readerDone.notify(queue: .global()) { continuation.resume() }
    }
    return exit.status
  }

  private func received(_ line: String) {
    output.withLock { $0.append(line) }
    resumeWaiters(for: line)
  }

  /// Resumes the waiters satisfied by `line`, or by any line so far when `line` is nil; only
  /// the new line is searched otherwise, so a long output costs no quadratic rescans.
  private func resumeWaiters(for line: String?) {
    let all = line == nil ? output.withLock { $0 } : []
    let due = waiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
      var due: [CheckedContinuation<Void, Never>] = []
      waiters.removeAll { fragment, continuation in
        let satisfied = line.map { $0.contains(fragment) } ?? all.contains { $0.contains(fragment) }
        guard satisfied else { return false }
        due.append(continuation)
        return true
      }
      return due
    }
    for continuation in due { continuation.resume() }
  }

  private func resumeAllWaiters() {
    let all = waiters.withLock { waiters in
      defer { waiters = [] }
      return waiters
    }
    for (_, continuation) in all { continuation.resume() }
  }
}
