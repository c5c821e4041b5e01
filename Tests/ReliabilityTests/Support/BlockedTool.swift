// The built tool started with pipes the test holds, for the signal tests: it can be left blocked
// on a pipe nobody writes to, or on an output nobody reads, and its kernel wait observed.
import Foundation
import Synchronization
import TestSupport

/// The tool with its stdin held open by the test and its stdout read (or left unread).
final class BlockedTool: Sendable {
  private let process: Process
  private let input: FileHandle
  private let collected = Collected()
  private let finished = DispatchGroup()
  private let exitedAt = ExitInstant()
  /// Kept open so the tool's stdout stays a pipe with a reader that never reads.
  private let unreadOutput: FileHandle?

  /// Starts the tool with `arguments`; with `readOutput` false its stdout is never read.
  init(_ arguments: [String], readOutput: Bool = true) throws {
    Subprocess.ignoreSIGPIPE()
    process = Process()
    process.executableURL = try toolBinary()
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    input = stdin.fileHandleForWriting
    unreadOutput = readOutput ? nil : stdout.fileHandleForReading
    finished.enter()
    process.terminationHandler = { [finished, exitedAt] _ in
      exitedAt.record()
      finished.leave()
    }
    try process.run()
    if readOutput {
      finished.enter()
      let reading = stdout.fileHandleForReading
      Thread.detachNewThread { [collected, finished] in
        let data = reading.readDataToEndOfFile()
        collected.set(data)
        finished.leave()
      }
    }
  }

  /// Everything the tool wrote, once it has exited.
  var output: String { String(decoding: collected.get(), as: UTF8.self) }

  func writeInput(_ text: String) {
    Subprocess.writeAll(Data(text.utf8), to: input.fileDescriptor)
  }

  /// Waits until the tool's main thread sleeps in open, read, write or poll (its wchan), with
  /// SIGINT caught; fails after 20 s. Polls /proc every 2 ms: there is nothing to wait on.
  func waitUntilBlocked() async throws {
    let pid = process.processIdentifier
    for _ in 0..<10_000 {
      let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      let blocked = ["wait_for_partner", "pipe_read", "pipe_write", "poll", "fifo_open"].contains { wchan.contains($0) }
      if blocked, Self.catchesSIGINT(status) { return }
      _ = poll(nil, 0, 2)
    }
    throw NeverBlocked(pid: pid)
  }

  /// Waits until the unread output pipe holds 48 KB or more (a pipe holds 64 KiB, less when
  /// written PIPE_BUF at a time), so the tool's next write blocks, with SIGINT caught; fails after 20 s.
  func waitUntilOutputIsFull() async throws {
    let pid = process.processIdentifier
    guard let unreadOutput else { throw NeverBlocked(pid: pid) }
    for _ in 0..<10_000 {
      var queued: Int32 = 0
      _ = ioctl(unreadOutput.fileDescriptor, UInt(FIONREAD), &queued)
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      if queued >= 48_000, Self.catchesSIGINT(status) { return }
      _ = poll(nil, 0, 2)
    }
    throw NeverBlocked(pid: pid)
  }

  /// Sends `signal` and returns the exit status and how long exiting took.
  func signal(_ signal: Int32) async -> (Int32, Duration) {
    let start = ContinuousClock.now
    kill(process.processIdentifier, signal)
    await withCheckedContinuation { continuation in finished.notify(queue: .global()) { continuation.resume() } }
    let elapsed = start.duration(to: exitedAt.instant ?? start)
    try? input.close()
    try? unreadOutput?.close()
    return (process.terminationStatus, elapsed)
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
struct NeverBlocked: Error, CustomStringConvertible {
  let pid: Int32
  var description: String { "process \(pid) never blocked in open, read, write or poll" }
}

/// When the process was seen to exit.
private final class ExitInstant: Sendable {
  private let stored = Mutex<ContinuousClock.Instant?>(nil)
  var instant: ContinuousClock.Instant? { stored.withLock { $0 } }
  func record() { stored.withLock { $0 = ContinuousClock.now } }
}
