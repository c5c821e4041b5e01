// The one way tests and the benchmark start a child process: posix_spawn, then a thread of its
// own that waits for the child's exit.
//
// Not Foundation's Process: on Linux its run() lists /proc/self/fd to find the descriptors to
// close in the child, and copies each directory entry's name with a fixed 256-byte length, reading
// past the end of glibc's buffer. When that buffer ends just before an unmapped page, the whole
// test process crashes in memcpy, now and then, in a suite that starts many children
// (https://github.com/swiftlang/swift-corelibs-foundation/pull/5472, fixed after Swift 6.3.1).
// posix_spawn with closefrom closes the same descriptors without listing anything.
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a child ended.
public struct ChildExit: Equatable, Sendable {
  /// The exit status, or the signal's number when ``signaled``.
  public let status: Int32
  /// True when a signal killed the child.
  public let signaled: Bool

  /// An end with `status`, by exit or (with `signaled`) by that signal.
  public init(status: Int32, signaled: Bool) {
    self.status = status
    self.signaled = signaled
  }

  /// The end a `waitpid` status word describes.
  init(waitStatus: Int32) {
    // WIFSIGNALED and WTERMSIG are macros Swift does not import: the low 7 bits are the signal.
    let signal = waitStatus & 0x7F
    self.init(status: signal == 0 ? (waitStatus >> 8) & 0xFF : signal, signaled: signal != 0)
  }
}

/// Where one of a child's standard descriptors (0, 1 or 2) comes from.
public enum ChildStream: Sendable {
  /// This process's own descriptor of the same number.
  case inherited
  /// `/dev/null`, open for reading and writing.
  case nullDevice
  /// A descriptor of this process, duplicated into the child. This process keeps its own copy:
  /// close it once the child has started (a pipe's end that stays open here never ends).
  case descriptor(Int32)
}

/// Which signals a child starts with at their default action; the others keep this process's
/// disposition (a signal ignored here stays ignored there).
public enum ChildSignalDefaults: Sendable {
  /// None: this process's dispositions.
  case inherited
  /// SIGPIPE: death by SIGPIPE when its reader goes, as a shell would start it.
  case sigpipe
  /// Every signal: a server that must act on SIGTERM however this process treats it.
  case all
}

/// Why a child could not be started, or a pipe for it made.
public struct SpawnError: Error, CustomStringConvertible {
  /// The program that was to run.
  public let executable: String
  /// The call that failed.
  public let call: String
  /// Its errno.
  public let code: Int32

  public var description: String {
    "cannot start \(executable): \(call) failed: \(String(cString: strerror(code))) (errno \(code))"
  }
}

/// A child process started with `posix_spawn`.
///
/// The child gets the three standard descriptors it is given and no other: every descriptor of
/// this process from 3 up is closed in it, whatever its close-on-exec flag. Its signal mask is
/// empty (the test runner's threads block some signals, and a child would keep them blocked), it
/// runs in a process group of its own (a tool that stops or signals its whole group leaves the
/// test process alone), and it keeps this process's signal dispositions but those
/// `signalDefaults` resets (``ChildSignalDefaults``).
///
/// A thread of its own starts the child and then waits for it, so no task thread ever blocks on
/// it; that same thread lives exactly as long as the child, which a child under `setpriv
/// --pdeathsig` needs (Linux sends the parent-death signal when the spawning thread ends).
///
/// ```swift
/// let (readEnd, writeEnd) = try ChildProcess.pipe()
/// let child = try ChildProcess("/bin/echo", arguments: ["hi"], standardOutput: .descriptor(writeEnd))
/// close(writeEnd)
/// let output = readToEnd(readEnd)  // on a thread of its own
/// close(readEnd)
/// #expect(await child.waitForExit() == ChildExit(status: 0, signaled: false))
/// ```
public final class ChildProcess: Sendable {
  /// The child's process id.
  public let processIdentifier: pid_t
  private let record: ExitRecord

  /// Starts `executable` (a path; `PATH` is not searched) with `arguments`, and `environment`
  /// exactly (this process's when nil). `whenExited` runs on the waiting thread as soon as the
  /// child has been reaped, before any ``waitForExit()`` resumes.
  ///
  /// Returns once the child has started (a few milliseconds); the caller's thread waits that
  /// long for the spawning thread's answer.
  ///
  /// - Throws: ``SpawnError`` with posix_spawn's error when the child cannot be started
  ///   (`ENOENT` for a missing executable).
  public init(
    _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
    standardInput: ChildStream = .inherited, standardOutput: ChildStream = .inherited,
    standardError: ChildStream = .inherited, signalDefaults: ChildSignalDefaults = .inherited,
    whenExited: @escaping @Sendable (ChildExit) -> Void = { _ in }
  ) throws {
    let request = SpawnRequest(
      executable: executable, arguments: arguments, environment: environment,
      streams: [standardInput, standardOutput, standardError], signalDefaults: signalDefaults)
    let record = ExitRecord()
    let started = StartOutcome()
    let thread = Thread {
      let outcome = request.spawn()
      started.set(outcome)
      guard case .success(let pid) = outcome else { return }
      record.reap(pid, then: whenExited)
    }
    thread.name = "ChildProcess \((executable as NSString).lastPathComponent)"
    thread.start()
    processIdentifier = try started.get()
    self.record = record
  }

  /// How the child ended, or nil while it runs.
  public var exit: ChildExit? { record.exit }

  /// Suspends until the child has exited (and the `whenExited` given at start has run); blocks
  /// no thread.
  public func waitForExit() async -> ChildExit {
    let record = self.record
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      record.exited.notify(queue: .global()) { continuation.resume() }
    }
    return record.exit ?? ChildExit(status: -1, signaled: false)
  }

  /// Blocks until the child has exited, at most `limit`; nil when it still runs. For a thread of
  /// its own, or a caller that is not a task.
  public func waitForExit(atMost limit: Duration) -> ChildExit? {
    let (seconds, attoseconds) = limit.components
    let nanoseconds = max(0, Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000))
    guard record.exited.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
    return record.exit
  }

  /// Sends `signal` to the child; nothing once it has been reaped, so that a later process that
  /// reused its id is never hit.
  public func signal(_ signal: Int32) {
    record.signal(processIdentifier, signal)
  }

  /// Sends `signal`, then waits for the child's exit at most `bound` of real time, on a thread
  /// of its own: a child still running then is killed (SIGKILL) and waited for, so that one that
  /// ignores the signal fails its test instead of hanging it. Returns how it ended, and whether
  /// that was within `bound`.
  public func signal(_ signal: Int32, waitingAtMost bound: Duration) async -> (exit: ChildExit, withinBound: Bool) {
    self.signal(signal)
    let withinBound = await withCheckedContinuation { continuation in
      Thread.detachNewThread { [self] in continuation.resume(returning: waitForExit(atMost: bound) != nil) }
    }
    if !withinBound { self.signal(SIGKILL) }
    return (await waitForExit(), withinBound)
  }

  /// A new pipe, both ends close-on-exec (a child started meanwhile by another thread, through
  /// anything but this type, must not hold an end: a write end held there never ends).
  ///
  /// - Throws: ``SpawnError`` with pipe's errno (`EMFILE`).
  public static func pipe() throws -> (readEnd: Int32, writeEnd: Int32) {
    var ends: [Int32] = [-1, -1]
    guard openPipe(&ends) == 0 else { throw SpawnError(executable: "a child", call: "pipe", code: errno) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }
}

/// One of a child's standard streams as a pipe: the child's end, given to it as ``forChild``
/// and closed here once it has started (its copy is then the only one, so its exit ends the
/// stream), and this process's end as a `FileHandle` that closes it when released.
public struct ChildPipe: Sendable {
  /// The child's end.
  public let childEnd: Int32
  /// This process's end.
  public let handle: FileHandle

  /// A pipe the child reads (its standard input): this process writes to ``handle``.
  public static func toChild() throws -> ChildPipe {
    let ends = try ChildProcess.pipe()
    return ChildPipe(childEnd: ends.readEnd, handle: FileHandle(fileDescriptor: ends.writeEnd, closeOnDealloc: true))
  }

  /// A pipe the child writes (its standard output or error): this process reads ``handle``.
  public static func fromChild() throws -> ChildPipe {
    let ends = try ChildProcess.pipe()
    return ChildPipe(childEnd: ends.writeEnd, handle: FileHandle(fileDescriptor: ends.readEnd, closeOnDealloc: true))
  }

  /// The child's end, as ``ChildProcess`` takes it.
  public var forChild: ChildStream { .descriptor(childEnd) }

  /// Closes the child's end here: call once the child has started, or failed to.
  public func closeChildEnd() { close(childEnd) }
}

/// pipe(2), named apart from ``ChildProcess/pipe()``.
private func openPipe(_ ends: inout [Int32]) -> Int32 {
  #if canImport(Glibc)
    Glibc.pipe(&ends)
  #else
    Darwin.pipe(&ends)
  #endif
}

/// What a child's waiting thread learns, shared with the ``ChildProcess``.
private final class ExitRecord: Sendable {
  private struct State {
    var reaped = false
    var exit: ChildExit?
  }

  private let state = Mutex(State())
  /// Entered until the child has been reaped and `whenExited` has run.
  let exited = DispatchGroup()

  init() { exited.enter() }

  var exit: ChildExit? { state.withLock { $0.exit } }

  /// Sends `signal` unless the child has been reaped. kill(2) is made under the lock (it never
  /// blocks and calls nothing back): the waiting thread marks the child reaped under it before
  /// reaping, so the id is still the child's while the lock is held.
  func signal(_ pid: pid_t, _ signal: Int32) {
    state.withLock { state in
      if !state.reaped { _ = kill(pid, signal) }
    }
  }

  /// Waits for `pid` to exit, reaps it, records how it ended, runs `whenExited`, then leaves
  /// ``exited``.
  func reap(_ pid: pid_t, then whenExited: @Sendable (ChildExit) -> Void) {
    // Exited but not yet reaped first: until the reap its id is not reused, so a signal sent
    // meanwhile reaches the child (a zombie, which ignores it) and nothing else.
    var information = siginfo_t()
    while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    state.withLock { $0.reaped = true }
    var status: Int32 = 0
    var reaped: pid_t = -1
    repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
    // Only when something else reaped it (SIGCHLD ignored): no status to report.
    let exit = reaped == pid ? ChildExit(waitStatus: status) : ChildExit(status: -1, signaled: false)
    state.withLock { $0.exit = exit }
    whenExited(exit)
    exited.leave()
  }
}

/// The spawning thread's answer, handed to the caller waiting for it.
private final class StartOutcome: Sendable {
  private let outcome = Mutex<Result<pid_t, SpawnError>?>(nil)
  private let ready = DispatchSemaphore(value: 0)

  func set(_ result: Result<pid_t, SpawnError>) {
    outcome.withLock { $0 = result }
    ready.signal()
  }

  func get() throws -> pid_t {
    ready.wait()
    guard let result = outcome.withLock({ $0 }) else {
      throw SpawnError(executable: "a child", call: "posix_spawn", code: EIO)
    }
    return try result.get()
  }
}

/// Everything posix_spawn needs, built into C memory on the spawning thread.
private struct SpawnRequest: Sendable {
  let executable: String
  let arguments: [String]
  let environment: [String: String]?
  let streams: [ChildStream]
  let signalDefaults: ChildSignalDefaults

  func spawn() -> Result<pid_t, SpawnError> {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    switch signalDefaults {
    case .inherited:
      break
    case .sigpipe:
      sigaddset(&defaults, SIGPIPE)
    case .all:
      sigfillset(&defaults)
      sigdelset(&defaults, SIGKILL)
      sigdelset(&defaults, SIGSTOP)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP
    posix_spawnattr_setflags(&attributes, Int16(flags))

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (target, stream) in streams.enumerated() {
      let code: Int32
      switch stream {
      case .inherited: code = 0
      case .nullDevice: code = posix_spawn_file_actions_addopen(&actions, Int32(target), "/dev/null", O_RDWR, 0)
      case .descriptor(let source): code = posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
      }
      if code != 0 { return .failure(SpawnError(executable: executable, call: "posix_spawn_file_actions", code: code)) }
    }
    let closing = Self.closeFrom(3, &actions)
    if closing != 0 {
      return .failure(
        SpawnError(executable: executable, call: "posix_spawn_file_actions_addclosefrom_np", code: closing))
    }

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer {
      for pointer in argv + (envp ?? []) { free(pointer) }
    }
    var pid: pid_t = 0
    let code =
      if let envp {
        posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
      } else {
        posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
      }
    return code == 0 ? .success(pid) : .failure(SpawnError(executable: executable, call: "posix_spawn", code: code))
  }

  private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run time:
  /// Swift does not import it (it needs `_GNU_SOURCE`).
  private static let addCloseFrom: AddCloseFrom? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: AddCloseFrom.self)
  }()

  /// Adds "close every descriptor from `lowest` up" to `actions`. Without closefrom (an older
  /// glibc), closes each descriptor up to the soft limit, at most 65,536, one by one: closing
  /// one that is not open is no error in posix_spawn.
  private static func closeFrom(_ lowest: Int32, _ actions: inout posix_spawn_file_actions_t) -> Int32 {
    if let addCloseFrom { return addCloseFrom(&actions, lowest) }
    let highest = Int32(clamping: min(max(sysconf(Int32(_SC_OPEN_MAX)), Int(lowest)), 65_536))
    for descriptor in lowest..<highest {
      let code = posix_spawn_file_actions_addclose(&actions, descriptor)
      if code != 0 { return code }
    }
    return 0
  }
}
