// A child process the test watches while it runs (a worker, `events --follow`): its output lines
// as they come, waits for a condition on them bounded in time, signals, and its exit. Every wait
// is a poll(2) on a pipe the reader threads write to when something changes, with a deadline: a
// condition that never comes fails the test after its bound instead of hanging it.
import Foundation
import Streams
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running child with its standard output and standard error collected line by line.
///
/// ```swift
/// let events = try ToolProcess(toolBinary(), arguments: ["events", "--redis", server.url, "--follow"])
/// let seen = await events.waitForOutput(within: .seconds(30)) { lines in lines.count >= 2 }
/// #expect(seen)
/// events.signal(SIGTERM)
/// #expect(await events.waitForExit(within: .seconds(30))?.status == 143)
/// ```
public final class ToolProcess: Sendable {
  private struct State {
    var stdout: [String] = []
    var stderr: [String] = []
    var exit: (status: Int32, bySignal: Bool)?
    var readersDone = 0
  }

  private final class Shared: Sendable {
    let state = Mutex(State())
  }

  private let shared = Shared()
  private let changed: ChangePipe
  private let child: ChildProcess
  /// The child's process id.
  public var processIdentifier: Int32 { child.processIdentifier }

  /// Starts `executable`; `input` is written to its standard input, which is then closed.
  public init(_ executable: URL, arguments: [String], input: Data = Data(), environment: [String: String]? = nil) throws
  {
    Subprocess.ignoreSIGPIPE()
    var command = [executable.path] + arguments
    if let setpriv = Self.setpriv {
      // Killed with this process: a worker left behind by a killed test would retry its dead
      // server for ever. ChildProcess's waiting thread, which spawns it, lives as long as it does.
      command = [setpriv, "--pdeathsig", "KILL", "--"] + command
    }
    let stdin = try ChildPipe.toChild()
    let stdout = try ChildPipe.fromChild()
    let stderr = try ChildPipe.fromChild()
    defer { for pipe in [stdin, stdout, stderr] { pipe.closeChildEnd() } }
    let writing = stdin.handle
    let outputs = [(stdout.handle, false), (stderr.handle, true)]
    let changed = try ChangePipe()
    self.changed = changed
    let state = shared
    child = try ChildProcess(
      command[0], arguments: Array(command.dropFirst()), environment: IsolatedCache.environment(environment),
      standardInput: stdin.forChild, standardOutput: stdout.forChild, standardError: stderr.forChild
    ) { exit in
      state.state.withLock { $0.exit = (exit.status, exit.signaled) }
      changed.signal()
    }
    for (handle, isError) in outputs {
      Thread.detachNewThread {
        var pending = Data()
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          pending.append(chunk)
          var lines: [String] = []
          while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending.removeSubrange(pending.startIndex...newline)
          }
          state.state.withLock { state in
            if isError { state.stderr += lines } else { state.stdout += lines }
          }
          changed.signal()
        }
        state.state.withLock { $0.readersDone += 1 }
        changed.signal()
      }
    }
    Thread.detachNewThread {
      Subprocess.writeAll(input, to: writing.fileDescriptor)
      try? writing.close()
    }
  }

  /// `setpriv`, on Linux, where it is found: a command run through `setpriv --pdeathsig KILL`
  /// dies with the test process that spawned it.
  public static let setpriv: String? = {
    #if os(Linux)
      ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    #else
      nil
    #endif
  }()

  /// Standard output's lines so far.
  public var outputLines: [String] { shared.state.withLock { $0.stdout } }
  /// Standard error's lines so far.
  public var errorLines: [String] { shared.state.withLock { $0.stderr } }
  /// Whether the process has exited (as far as its readers have seen).
  public var hasExited: Bool { shared.state.withLock { $0.exit != nil } }

  /// Waits until `condition` holds for the output lines, at most `limit`; false when it did not.
  public func waitForOutput(within limit: Duration, until condition: @escaping @Sendable ([String]) -> Bool) async
    -> Bool
  {
    await waitFor(within: limit) { state in condition(state.stdout) }
  }

  /// Waits until `condition` holds for the error lines, at most `limit`; false when it did not.
  public func waitForErrorLines(within limit: Duration, until condition: @escaping @Sendable ([String]) -> Bool)
    async -> Bool
  {
    await waitFor(within: limit) { state in condition(state.stderr) }
  }

  /// Waits until standard error has a line containing `fragment`, at most `limit`.
  public func waitForError(within limit: Duration, containing fragment: String) async -> Bool {
    await waitFor(within: limit) { state in state.stderr.contains { $0.contains(fragment) } }
  }

  /// Waits for the exit and the end of both outputs, at most `limit`; nil when it did not come.
  public func waitForExit(within limit: Duration) async -> (status: Int32, bySignal: Bool)? {
    let done = await waitFor(within: limit) { state in state.exit != nil && state.readersDone == 2 }
    return done ? shared.state.withLock { $0.exit } : nil
  }

  /// Sends `signal` to the child (nothing once it has exited).
  public func signal(_ signal: Int32) { child.signal(signal) }

  /// Kills the child if it still runs (SIGKILL, then SIGCONT for one that was stopped).
  public func stop() {
    child.signal(SIGKILL)
    child.signal(SIGCONT)
  }

  deinit { stop() }

  private func waitFor(within limit: Duration, _ condition: @escaping @Sendable (State) -> Bool) async -> Bool {
    let shared = self.shared
    let changed = self.changed
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      Thread.detachNewThread {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while true {
          // The generation is read before the condition: a change that lands between the two
          // ends the wait at once instead of being missed.
          let seen = changed.generationNow
          if shared.state.withLock({ condition($0) }) {
            continuation.resume(returning: true)
            return
          }
          let left = clock.now.duration(to: deadline)
          guard left > .zero else {
            continuation.resume(returning: false)
            return
          }
          changed.wait(after: seen, atMost: left)
        }
      }
    }
  }
}

/// Wakes every waiter when something changed: each waiter polls the read end, whose byte count
/// only grows, and remembers how much it has seen.
private final class ChangePipe: Sendable {
  private let generation = Atomic<Int>(0)
  private let readEnd: Int32
  private let writeEnd: Int32

  init() throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
    for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL, 0) | O_NONBLOCK) }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  func signal() {
    generation.add(1, ordering: .releasing)
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// How many changes there have been.
  var generationNow: Int { generation.load(ordering: .acquiring) }

  /// Returns once there have been more than `seen` changes, or after `limit`.
  func wait(after seen: Int, atMost limit: Duration) {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while generation.load(ordering: .acquiring) == seen {
      let left = clock.now.duration(to: deadline)
      guard left > .zero else { return }
      var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(clamping: left.components.seconds * 1000 + 1)
      _ = poll(&entry, 1, min(milliseconds, 100))
      var buffer = [UInt8](repeating: 0, count: 256)
      // Several waiters share the pipe: draining it is a hint, the generation is the truth.
      _ = read(readEnd, &buffer, buffer.count)
    }
  }
}
