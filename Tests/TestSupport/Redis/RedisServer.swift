// A real redis-server for the tests: started on a free loopback port in a temporary directory of
// its own, without persistence unless a test asks for it, and stopped by its process id. Tests
// that need one skip with one line when redis-server is not installed, except under CI, where a
// missing server is a failure (.ci/run installs it).
import Foundation
import RESP
import Streams
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a server could not be had.
public enum RedisServerError: Error, CustomStringConvertible {
  /// No `redis-server` on the PATH or in the usual places.
  case notInstalled
  /// It did not say it was ready in time; its last output.
  case didNotStart(output: String)

  /// One line.
  public var description: String {
    switch self {
    case .notInstalled:
      "redis-server is not installed (apt-get install redis-server; .ci/run installs it under CI)"
    case .didNotStart(let output): "redis-server did not start: \(output)"
    }
  }
}

/// A `redis-server` child process on 127.0.0.1.
///
/// ```swift
/// @Test(.enabled(if: RedisServer.shouldRun, Comment(rawValue: RedisServer.skipNote))) func pings() async throws {
///   let server = try await RedisServer.start()
///   defer { server.stop() }
///   let connection = try RESPConnection(endpoint: server.endpoint)
///   #expect(try connection.call(RESPCommand("PING")) == .simpleString("PONG"))
/// }
/// ```
///
/// Started with `--save ''` and `--appendonly no` (nothing written to disk) unless `persistent`,
/// which turns on the append-only file with an fsync per write, so that a restart keeps every
/// write the server acknowledged. The directory is removed by ``stop()``.
public final class RedisServer: Sendable {
  /// Whether tests that need a server should run: a server is installed, or this is CI (where
  /// its absence must fail the tests rather than skip them).
  public static var shouldRun: Bool { executable != nil || isCI }

  /// The line a skipped test prints.
  public static let skipNote = "redis-server is not installed (apt-get install redis-server); skipped"

  /// True under CI (`CI=true`).
  public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  /// The `redis-server` binary, if one is installed.
  public static let executable: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/usr/local/bin"]
    for directory in directories {
      let candidate = URL(fileURLWithPath: directory).appendingPathComponent("redis-server")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }()

  /// The port it listens on.
  public let port: UInt16
  /// Its working directory (the append-only file lives there when persistent).
  public let directory: URL
  private let arguments: [String]
  private let running = Mutex<RunningServer?>(nil)

  /// `redis://127.0.0.1:<port>`.
  public var url: String { "redis://127.0.0.1:\(port)" }

  /// Where the client connects.
  public var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: port) }

  /// The running server's process id; nil once stopped.
  public var processIdentifier: Int32? { running.withLock { $0?.process.processIdentifier } }

  private init(port: UInt16, directory: URL, arguments: [String]) {
    self.port = port
    self.directory = directory
    self.arguments = arguments
  }

  /// Starts a server and returns once it accepts connections (within `startTimeout`).
  ///
  /// - Parameters:
  ///   - persistent: keep an append-only file, fsynced on every write, so ``restart()`` keeps data.
  ///   - extraArguments: more `redis-server` options, e.g. `["--requirepass", "secret"]`.
  /// - Throws: ``RedisServerError``.
  public static func start(
    persistent: Bool = false, extraArguments: [String] = [], startTimeout: Duration = .seconds(30)
  ) async throws -> RedisServer {
    guard let executable else { throw RedisServerError.notInstalled }
    var lastFailure = RedisServerError.didNotStart(output: "no attempt")
    // A free port can be taken by someone else between finding it and the server binding it:
    // then the server exits at once, and another port is tried.
    for _ in 0..<5 {
      let port = try Socket.closedLoopbackPort()
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("stream-search-redis-\(getpid())-\(port)-\(UUID().uuidString.prefix(8))")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      var arguments = [
        "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path, "--daemonize", "no",
        "--logfile", "", "--save", "", "--protected-mode", "yes",
      ]
      arguments += persistent ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]
      arguments += extraArguments
      let server = RedisServer(port: port, directory: directory, arguments: arguments)
      do {
        try await server.launch(executable: executable, within: startTimeout)
        return server
      } catch let failure as RedisServerError {
        server.stop()
        lastFailure = failure
      }
    }
    throw lastFailure
  }

  /// Stops the server (SIGKILL by its process id, as a crash would; nothing is saved) and
  /// waits for it to exit; keeps the directory for ``restart()``.
  public func kill() {
    halt(signal: SIGKILL)
  }

  /// Stops it cleanly (SIGTERM: a persistent server flushes its file) and waits for it to exit;
  /// keeps the directory for ``restart()``.
  public func shutDown() {
    halt(signal: SIGTERM)
  }

  /// Starts it again on the same port and directory after ``kill()`` or ``shutDown()``.
  public func restart(within startTimeout: Duration = .seconds(30)) async throws {
    guard let executable = Self.executable else { throw RedisServerError.notInstalled }
    try await launch(executable: executable, within: startTimeout)
  }

  /// Stops the server for good (SIGKILL by process id), waits for it to exit and removes its
  /// directory. Safe to call more than once.
  public func stop() {
    halt(signal: SIGKILL)
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }

  private func halt(signal: Int32) {
    guard let server = running.withLock({ $0.take() }) else { return }
    _ = sendSignal(server.process.processIdentifier, signal)
    // A clean shutdown is bounded too: a server that does not exit in time is killed.
    if !server.exited.wait(atMost: .seconds(30)) {
      _ = sendSignal(server.process.processIdentifier, SIGKILL)
      _ = server.exited.wait(atMost: .seconds(30))
    }
  }

  /// Starts `process` from a thread of its own that blocks no signal: a child inherits the
  /// signal mask of the thread that spawns it, and the test runner's threads block SIGTERM,
  /// which redis-server (unlike our tool) never unblocks, so it would ignore ``shutDown()``.
  private static func spawnWithSignalsUnblocked(_ process: Process) async throws {
    let spawn = UncheckedProcess(process)
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      Thread.detachNewThread {
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        continuation.resume(with: Result { try spawn.process.run() })
      }
    }
  }

  private func launch(executable: URL, within startTimeout: Duration) async throws {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    let exited = try ExitSignal()
    process.terminationHandler = { _ in exited.fire() }
    try await Self.spawnWithSignalsUnblocked(process)
    running.withLock { $0 = RunningServer(process: process, exited: exited) }
    let reading = output.fileHandleForReading.fileDescriptor
    let ready = await ServerOutput.waitForReadiness(on: reading, within: startTimeout, keepOpen: output)
    if let failure = ready { throw RedisServerError.didNotStart(output: failure) }
  }
}

private struct RunningServer: @unchecked Sendable {
  // Process is not Sendable; it is only read (its pid) once started.
  let process: Process
  let exited: ExitSignal
}

/// A process handed to the thread that starts it.
private struct UncheckedProcess: @unchecked Sendable {
  let process: Process
  init(_ process: Process) { self.process = process }
}

/// Fired once by a process's termination handler; waited on with poll(2).
private final class ExitSignal: Sendable {
  let signal: CancellationSignal

  init() throws { signal = try CancellationSignal() }

  func fire() { signal.signal() }

  /// Waits for the exit, at most `limit`; false when it did not come.
  func wait(atMost limit: Duration) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    var entry = pollfd(fd: signal.readEnd, events: Int16(POLLIN), revents: 0)
    while !signal.isSignalled {
      let left = clock.now.duration(to: deadline)
      guard left > .zero else { return false }
      _ = poll(&entry, 1, Int32(clamping: left.components.seconds * 1000 + 1))
    }
    return true
  }
}

/// Reads the server's output on a thread of its own for as long as it runs (so that its log
/// never fills the pipe), and reports when it says it is ready.
private enum ServerOutput {
  static let readyMarker = "Ready to accept connections"

  /// Nil once the server is ready; its output so far when it exited first or `within` passed.
  static func waitForReadiness(on descriptor: Int32, within limit: Duration, keepOpen pipe: Pipe) async -> String? {
    await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
      let reader = Thread {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        var seen: [UInt8] = []
        var answered = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          var timeout: Int32 = -1
          if !answered {
            let left = clock.now.duration(to: deadline)
            if left <= .zero {
              answered = true
              continuation.resume(returning: "no '\(readyMarker)' within \(limit): " + text(seen))
              continue
            }
            timeout = Int32(clamping: left.components.seconds * 1000 + 1)
          }
          var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
          let count = poll(&entry, 1, timeout)
          if count < 0 && errno != EINTR { break }
          if count <= 0 { continue }
          let read = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, $0.count) }
          if read <= 0 { break }
          if !answered {
            seen += buffer[0..<read]
            if text(seen).contains(readyMarker) {
              answered = true
              continuation.resume(returning: nil)
            }
          }
        }
        if !answered { continuation.resume(returning: "exited: " + text(seen)) }
        // The pipe stays open until here, so that the descriptor is never closed under the read.
        withExtendedLifetime(pipe) {}
      }
      reader.start()
    }
  }

  private static func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.suffix(2000), as: UTF8.self).replacingOccurrences(of: "\n", with: " | ")
  }
}

private func sendSignal(_ process: Int32, _ signal: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.kill(process, signal)
  #else
    Darwin.kill(process, signal)
  #endif
}

private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
  #else
    Darwin.read(descriptor, buffer, count)
  #endif
}
