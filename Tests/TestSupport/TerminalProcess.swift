// A child process on a real pseudo-terminal (openpty), for tests of the interactive screen: the
// test types bytes into the terminal, reads what the child draws on it, and reads the child's
// standard output from a pipe apart from the terminal. Every wait is bounded in real time and
// waits by polling reads with poll(2): there is no sleep.
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// close(2), named apart from ``TerminalProcess/close()``.
private func closeDescriptor(_ descriptor: Int32) {
  #if canImport(Glibc)
    _ = Glibc.close(descriptor)
  #else
    _ = Darwin.close(descriptor)
  #endif
}

/// What the test has seen of the child so far.
public struct TerminalSnapshot: Sendable {
  /// Every byte the child wrote to the terminal.
  public var terminal: [UInt8] = []
  /// Every byte the child wrote to its standard output.
  public var standardOutput: [UInt8] = []
  /// How the child ended, once it has.
  public var exit: ChildExit?
}

/// A child started with a pseudo-terminal as its controlling terminal, standard input and
/// standard error, and a pipe as its standard output.
///
/// A reader thread drains the terminal and the pipe as the child writes (so the child never
/// blocks on a full terminal) and reaps the child once its standard output ends. Waits resume as
/// soon as what they wait for has arrived, or at their deadline.
public final class TerminalProcess: Sendable {
  private struct Waiter {
    let condition: @Sendable (TerminalSnapshot) -> Bool
    let deadline: ContinuousClock.Instant
    let continuation: CheckedContinuation<ContinuousClock.Instant?, Never>
    /// Bytes typed on the reader thread the moment `condition` holds, before the waiting task
    /// resumes: a loaded test pool may take seconds to run that task, and a test of timing
    /// (typing before an answer arrives) must not depend on it.
    var reaction: [UInt8] = []
  }

  private struct State {
    var snapshot = TerminalSnapshot()
    var waiters: [Waiter] = []
    var finished = false
  }

  /// The child's process id.
  public let processIdentifier: pid_t
  /// The terminal's modes before the child started (a fresh pty's: echo, canonical input, signals).
  public let initialModes: termios
  private let master: Int32
  private let slave: Int32
  private let output: Mutex<Int32>
  private let state = Mutex(State())

  /// Starts `executable` with `arguments` and exactly `environment`, on a terminal of
  /// `rows` × `columns`. Without `terminal`, the child gets no terminal at all: a new session
  /// with /dev/null as standard input and standard error joined to the standard output pipe.
  ///
  /// - Throws: ``TerminalProcessError`` when the terminal or the child cannot be created.
  public init(
    _ executable: URL, arguments: [String], environment: [String: String], rows: Int = 24, columns: Int = 80,
    terminal: Bool = true
  ) throws {
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    var master: Int32 = -1
    var slave: Int32 = -1
    guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw TerminalProcessError.openpty(errno) }
    var pipeEnds: [Int32] = [-1, -1]
    guard pipe(&pipeEnds) == 0 else { throw TerminalProcessError.pipe(errno) }
    for descriptor in [master, slave, pipeEnds[0], pipeEnds[1]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    var modes = termios()
    _ = tcgetattr(slave, &modes)
    initialModes = modes
    let child = Self.spawn(
      executable.path, arguments: arguments, environment: environment, terminal: terminal ? slave : nil,
      standardOutput: pipeEnds[1])
    closeDescriptor(pipeEnds[1])
    guard child > 0 else {
      closeDescriptor(pipeEnds[0])
      closeDescriptor(master)
      closeDescriptor(slave)
      throw TerminalProcessError.fork(errno)
    }
    processIdentifier = child
    self.master = master
    self.slave = slave
    output = Mutex(pipeEnds[0])
    let thread = Thread { [self] in readUntilFinished() }
    thread.name = "TerminalProcess.reader"
    thread.start()
  }

  /// Types `text` into the terminal, as a person's key presses.
  public func type(_ text: String) { type(Array(text.utf8)) }

  /// Writes `bytes` to the terminal, as a terminal sends keys (`[0x1B, 0x5B, 0x42]` is Down).
  public func type(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      if written > 0 { offset += written } else if errno != EINTR { return }
    }
  }

  /// Sets the terminal's size; the kernel sends SIGWINCH to the child.
  public func resize(rows: Int, columns: Int) {
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  /// The terminal's modes now, as the child left or set them.
  public var modes: termios {
    var modes = termios()
    _ = tcgetattr(slave, &modes)
    return modes
  }

  /// Sends `signal` to the child.
  public func send(_ signal: Int32) { kill(processIdentifier, signal) }

  /// Closes the test's end of the child's standard output, as a reader that goes away.
  public func closeStandardOutput() {
    output.withLock { descriptor in
      if descriptor >= 0 { closeDescriptor(descriptor) }
      descriptor = -1
    }
  }

  /// What has been seen so far.
  public var snapshot: TerminalSnapshot { state.withLock { $0.snapshot } }

  /// Waits until `condition` holds for what has been seen, at most `timeout`; returns when it
  /// first held (the arrival of the bytes that made it true), or nil at the deadline.
  public func wait(
    timeout: Duration = hangBound, until condition: @escaping @Sendable (TerminalSnapshot) -> Bool
  ) async -> ContinuousClock.Instant? {
    await wait(timeout: timeout, thenType: [], until: condition)
  }

  /// Waits as `wait(timeout:until:)` does, and types `reaction` as soon as `condition` holds,
  /// from the thread that saw it (not at the deadline).
  public func wait(
    timeout: Duration = hangBound, thenType reaction: [UInt8],
    until condition: @escaping @Sendable (TerminalSnapshot) -> Bool
  ) async -> ContinuousClock.Instant? {
    let deadline = ContinuousClock.now + timeout
    return await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        if condition(state.snapshot) { return true }
        state.waiters.append(
          Waiter(condition: condition, deadline: deadline, continuation: continuation, reaction: reaction))
        return false
      }
      if now {
        type(reaction)
        continuation.resume(returning: ContinuousClock.now)
      }
    }
  }

  /// Waits for the child to exit, at most `timeout`; kills it (SIGKILL) if it has not.
  public func waitForExit(timeout: Duration = hangBound) async -> ChildExit? {
    if await wait(timeout: timeout, until: { $0.exit != nil }) == nil {
      send(SIGKILL)
      _ = await wait(timeout: hangBound, until: { $0.exit != nil })
      return nil
    }
    return snapshot.exit
  }

  /// Stops reading and closes the terminal; kills the child if it is still running.
  public func close() {
    let running = state.withLock { state in
      defer { state.finished = true }
      return state.snapshot.exit == nil && !state.finished
    }
    if running { send(SIGKILL) }
  }

  deinit {
    closeDescriptor(master)
    closeDescriptor(slave)
    closeStandardOutput()
  }

  private func readUntilFinished() {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !state.withLock({ $0.finished && $0.waiters.isEmpty }) {
      let outputDescriptor = output.withLock { $0 }
      var descriptors = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
      if outputDescriptor >= 0 { descriptors.append(pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)) }
      // A short timeout only so that deadlines are checked; data wakes poll at once.
      _ = poll(&descriptors, nfds_t(descriptors.count), 20)
      var terminalBytes: [UInt8] = []
      var outputBytes: [UInt8] = []
      var outputEnded = false
      if descriptors[0].revents & Int16(POLLIN) != 0 {
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count > 0 { terminalBytes = Array(buffer[0..<count]) }
      }
      if descriptors.count > 1, descriptors[1].revents != 0 {
        let count = buffer.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress, $0.count) }
        if count > 0 {
          outputBytes = Array(buffer[0..<count])
        } else if count == 0 || errno != EINTR {
          outputEnded = true
        }
      }
      var exit: ChildExit?
      if outputEnded || outputDescriptor < 0 {
        if outputEnded { closeStandardOutput() }
        exit = reap(blocking: outputEnded)
        // Whatever the child wrote to the terminal before it exited is seen with its exit.
        if exit != nil { terminalBytes += drainTerminal(into: &buffer) }
      }
      deliver(terminalBytes: terminalBytes, outputBytes: outputBytes, exit: exit)
    }
  }

  /// Everything readable on the terminal now, without waiting.
  private func drainTerminal(into buffer: inout [UInt8]) -> [UInt8] {
    var drained: [UInt8] = []
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    while poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0 {
      let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      drained += buffer[0..<count]
    }
    return drained
  }

  /// The child's end, waiting for it when its standard output has ended (it is exiting).
  private func reap(blocking: Bool) -> ChildExit? {
    guard state.withLock({ $0.snapshot.exit == nil }) else { return nil }
    var status: Int32 = 0
    guard waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG) == processIdentifier else { return nil }
    return ChildExit(waitStatus: status)
  }

  private func deliver(terminalBytes: [UInt8], outputBytes: [UInt8], exit: ChildExit?) {
    let now = ContinuousClock.now
    typealias Resumption = (CheckedContinuation<ContinuousClock.Instant?, Never>, ContinuousClock.Instant?)
    var reactions: [UInt8] = []
    let due = state.withLock { state -> [Resumption] in
      state.snapshot.terminal += terminalBytes
      state.snapshot.standardOutput += outputBytes
      if let exit { state.snapshot.exit = exit }
      let snapshot = state.snapshot
      var due: [Resumption] = []
      state.waiters.removeAll { waiter in
        if waiter.condition(snapshot) {
          reactions += waiter.reaction
          due.append((waiter.continuation, now))
        } else if now >= waiter.deadline {
          due.append((waiter.continuation, nil))
        } else {
          return false
        }
        return true
      }
      return due
    }
    if !reactions.isEmpty { type(reactions) }
    for (continuation, instant) in due { continuation.resume(returning: instant) }
  }

  /// fork, then in the child: a new session, the terminal as controlling terminal and
  /// standard input and error (or /dev/null), the pipe as standard output, every other descriptor
  /// closed, exec. Only async-signal-safe calls run in the child, on memory prepared before.
  private static func spawn(
    _ path: String, arguments: [String], environment: [String: String], terminal: Int32?, standardOutput: Int32
  ) -> pid_t {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    guard let executable = strdup(path) else { return -1 }
    defer { free(executable) }
    guard let devNull = strdup("/dev/null") else { return -1 }
    defer { free(devNull) }
    let child = fork()
    guard child == 0 else { return child }
    _ = setsid()
    if let terminal {
      _ = ioctl(terminal, UInt(TIOCSCTTY), 0)
      _ = dup2(terminal, 0)
      _ = dup2(terminal, 2)
    } else {
      _ = dup2(open(devNull, O_RDWR), 0)
      _ = dup2(standardOutput, 2)
    }
    _ = dup2(standardOutput, 1)
    for descriptor in 3..<1024 { closeDescriptor(Int32(descriptor)) }
    _ = execve(executable, argv, envp)
    _exit(127)
  }
}

/// Why a ``TerminalProcess`` could not start, with the errno.
public enum TerminalProcessError: Error {
  case openpty(Int32)
  case pipe(Int32)
  case fork(Int32)
}
