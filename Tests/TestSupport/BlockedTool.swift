// The built tool started with pipes the caller holds, for the signal tests and the benchmark's
// signal section: it can be left blocked on a pipe nobody writes to, or on an output nobody
// reads, its kernel wait observed, and the time from a signal to its exit measured.
import Foundation
import Synchronization

/// The tool with its stdin held open by the test and its stdout read (or left unread).
public final class BlockedTool: Sendable {
  private let child: ChildProcess
  private let input: FileHandle
  private let collected = Collected()
  /// Entered until the tool has exited and its output (when read) has ended.
  private let finished = DispatchGroup()
  private let exitedAt = ExitInstant()
  /// Kept open so the tool's stdout stays a pipe with a reader that never reads.
  private let unreadOutput: FileHandle?

  /// Starts `executable` with `arguments`; with `readOutput` false its stdout is never read.
  public init(_ executable: URL, _ arguments: [String], readOutput: Bool = true) throws {
    Subprocess.ignoreSIGPIPE()
    let stdin = try ChildPipe.toChild()
    let stdout = try ChildPipe.fromChild()
    defer {
      stdin.closeChildEnd()
      stdout.closeChildEnd()
    }
    input = stdin.handle
    let reading = stdout.handle
    unreadOutput = readOutput ? nil : reading
    finished.enter()
    do {
      child = try ChildProcess(
        executable.path, arguments: arguments, standardInput: stdin.forChild,
        standardOutput: stdout.forChild, standardError: .nullDevice
      ) { [finished, exitedAt] _ in
        exitedAt.record()
        finished.leave()
      }
    } catch {
      finished.leave()
      throw error
    }
    if readOutput {
      finished.enter()
      Thread.detachNewThread { [collected, finished] in
        let data = reading.readDataToEndOfFile()
        collected.set(data)
        finished.leave()
      }
    }
  }

  /// Everything the tool wrote, once it has exited.
  public var output: String { String(decoding: collected.get(), as: UTF8.self) }

  /// Writes `text` to the tool's standard input, all of it.
  public func writeInput(_ text: String) {
    Subprocess.writeAll(Data(text.utf8), to: input.fileDescriptor)
  }

  /// Waits until the tool sleeps at a blocking point, with SIGINT caught; fails after
  /// ``hangBound``. A
  /// blocking point is a thread asleep in open, read, write or poll (its wchan), while the main
  /// thread sleeps there too or waits for that thread (a replay's main thread waits in a futex for
  /// its reader thread), the same for 100 ms in a row, so that a passing wait at start-up is not
  /// taken for it. Polls /proc every 2 ms, on a thread of its own: there is nothing to wait on,
  /// and a blocked pool thread would stall every other test in the process.
  public func waitUntilBlocked() async throws {
    let pid = child.processIdentifier
    let blocked = await Self.onOwnThread { () -> Bool in
      let points = ["wait_for_partner", "pipe_read", "pipe_write", "poll", "fifo_open"]
      var heldFor = 0
      let deadline = ContinuousClock.now + hangBound
      while ContinuousClock.now < deadline {
        let wchans = Self.threadWaits(of: pid)
        let main = wchans[pid] ?? ""
        let someoneWaits = wchans.values.contains { wchan in points.contains { wchan.contains($0) } }
        let mainWaits = main.contains("futex") || points.contains { main.contains($0) }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        heldFor = someoneWaits && mainWaits && Self.catchesSIGINT(status) ? heldFor + 1 : 0
        if heldFor >= 50 { return true }
        _ = poll(nil, 0, 2)
      }
      return false
    }
    if !blocked {
      // Nothing else would end it: a failed test must not leave the tool running.
      child.signal(SIGKILL)
      throw NeverBlocked(pid: pid)
    }
  }

  /// What each thread of process `pid` sleeps in (its wchan, "0" when running), by thread id.
  private static func threadWaits(of pid: Int32) -> [Int32: String] {
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    var waits: [Int32: String] = [:]
    for thread in threads {
      guard let id = Int32(thread) else { continue }
      waits[id] = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/wchan", encoding: .utf8)) ?? ""
    }
    return waits
  }

  /// Waits until the unread output pipe is full, so the tool waits to write, with SIGINT caught;
  /// fails after ``hangBound``. Polls on a thread of its own, as ``waitUntilBlocked()`` does.
  public func waitUntilOutputIsFull() async throws {
    let pid = child.processIdentifier
    guard let descriptor = unreadOutput?.fileDescriptor else { throw NeverBlocked(pid: pid) }
    let full = await Self.onOwnThread { () -> Bool in
      // Full is a queue a few pages deep that holds still while every thread of the tool sleeps
      // in the kernel (its wchan), the same for 100 ms in a row. Events far beyond a pipe's worth
      // are on their way, so a tool asleep with its output queued waits for room. A queue that
      // merely stopped growing is not enough: so it does while the tool waits for a core that
      // this process's own threads hold, and a thread that waits for a core is not asleep.
      var heldFor = 0
      var last: Int32 = -1
      let deadline = ContinuousClock.now + hangBound
      while ContinuousClock.now < deadline {
        var queued: Int32 = 0
        _ = ioctl(descriptor, UInt(FIONREAD), &queued)
        let waits = Self.threadWaits(of: pid).values
        let asleep = !waits.isEmpty && waits.allSatisfy { !$0.isEmpty && $0 != "0" }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let still = queued == last
        last = queued
        heldFor = queued >= 16_384 && still && asleep && Self.catchesSIGINT(status) ? heldFor + 1 : 0
        if heldFor >= 50 { return true }
        _ = poll(nil, 0, 2)
      }
      return false
    }
    if !full {
      child.signal(SIGKILL)
      throw NeverBlocked(pid: pid)
    }
  }

  /// Sends `signal` and returns the exit status and how long exiting took, as seen by this
  /// process (its own scheduling delay included). A tool still running `bound` later is killed
  /// (SIGKILL, status 9) so that a tool ignoring the signal fails the caller instead of hanging it.
  public func signal(_ signal: Int32, waitingAtMost bound: Duration = hangBound) async -> (Int32, Duration) {
    let start = ContinuousClock.now
    _ = await child.signal(signal, waitingAtMost: bound)
    await Self.onOwnThread { [finished] in finished.wait() }
    let elapsed = start.duration(to: exitedAt.instant ?? start)
    try? input.close()
    try? unreadOutput?.close()
    return (child.exit?.status ?? -1, elapsed)
  }

  /// Runs blocking `work` on a new thread and returns its result.
  private static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: work()) }
    }
  }

  /// Whether /proc/PID/status says SIGINT (bit 1 of SigCgt) is caught.
  private static func catchesSIGINT(_ status: String) -> Bool {
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
      let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << (UInt64(SIGINT) - 1)) != 0
  }
}

/// The tool never reached a blocking point within the wait.
public struct NeverBlocked: Error, CustomStringConvertible {
  /// The tool's process.
  public let pid: Int32
  public var description: String { "process \(pid) never blocked in open, read, write or poll" }
}

/// When the process was seen to exit.
private final class ExitInstant: Sendable {
  private let stored = Mutex<ContinuousClock.Instant?>(nil)
  var instant: ContinuousClock.Instant? { stored.withLock { $0 } }
  func record() { stored.withLock { $0 = ContinuousClock.now } }
}

/// The three places the tool can be left waiting in the kernel (issue 10, defect 5), each set up
/// the same way by the signal tests and by the benchmark that measures how fast a signal ends it.
public enum BlockingPoint: String, CaseIterable, Sendable {
  /// `--replay --input FIFO` with no writer: its reader thread blocked waiting for one.
  case openingAFIFOWithNoWriter = "open() of a FIFO with no writer"
  /// A replay that read one line of a pipe nobody writes to any more: its reader thread blocked
  /// waiting for the next.
  case readingAStalledPipe = "read() of a stalled pipe"
  /// A live run whose reader stopped reading: blocked writing to a full pipe.
  case writingToAFullPipe = "write() to a full pipe"
  /// A replay whose reader stopped reading: its writer thread blocked on a full pipe, and the
  /// replay on the writer thread's full queue.
  case replayWritingToAFullPipe = "a replay's write() to a full pipe"

  /// Starts `executable` and returns it once it waits at this point with its signal handlers
  /// installed; throws ``NeverBlocked`` if it never gets there within ``hangBound``.
  public func start(_ executable: URL) async throws -> BlockedTool {
    switch self {
    case .openingAFIFOWithNoWriter:
      let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID()).fifo").path
      guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      // The name can go once the tool waits in open(): that open already holds the FIFO itself.
      defer { unlink(fifo) }
      let tool = try BlockedTool(executable, ["--replay", "--input", fifo, "--format", "jsonl"])
      try await tool.waitUntilBlocked()
      return tool
    case .readingAStalledPipe:
      let tool = try BlockedTool(executable, ["--replay", "--format", "jsonl"])
      tool.writeInput(#"{"term": "tay", "at_ms": 0}"# + "\n")
      try await tool.waitUntilBlocked()
      return tool
    case .writingToAFullPipe:
      let tool = try BlockedTool(executable, ["--format", "jsonl", "--debounce", "1ms"], readOutput: false)
      // Forty sessions' answers are far more than a pipe holds (64 KiB): the writes block.
      tool.writeInput((0..<40).map { #"{"term": "tay", "session": "s\#($0)"}"# + "\n" }.joined())
      try await tool.waitUntilOutputIsFull()
      return tool
    case .replayWritingToAFullPipe:
      // Every keystroke settles and finds results: megabytes of events, far more than a pipe
      // and the tool's queue hold.
      let terms = ["taylor", "love", "night", "the", "sun"]
      let lines = (0..<4_000).map { #"{"at_ms": \#($0 * 400), "term": "\#(terms[$0 % terms.count])\#($0)"}"# }
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID()).jsonl")
      try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
      // The tool has the file open once it writes; the name can go when it has started.
      defer { try? FileManager.default.removeItem(at: file) }
      let tool = try BlockedTool(
        executable, ["--replay", "--input", file.path, "--format", "jsonl"], readOutput: false)
      try await tool.waitUntilOutputIsFull()
      return tool
    }
  }
}
