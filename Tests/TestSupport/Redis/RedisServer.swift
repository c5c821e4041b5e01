// A real redis-server for the tests: started on a free loopback port in a temporary directory of
// its own, without persistence unless a test asks for it, and stopped by a signal. Tests
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
  public var processIdentifier: Int32? { running.withLock { $0?.child.processIdentifier } }

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
  ///   - portsBelow: a bound on the port (a cluster node also listens on its port + 10000).
  /// - Throws: ``RedisServerError``.
  public static func start(
    persistent: Bool = false, extraArguments: [String] = [], portsBelow: UInt16 = .max,
    startTimeout: Duration = .seconds(30)
  ) async throws -> RedisServer {
    guard let executable else { throw RedisServerError.notInstalled }
    var lastFailure = RedisServerError.didNotStart(output: "no attempt")
    // A free port can be taken by someone else between finding it and the server binding it:
    // then the server exits at once, and another port is tried.
    var attempts = 0
    for _ in 0..<200 where attempts < 5 {
      let port = try Socket.closedLoopbackPort()
      guard port < portsBelow else { continue }
      attempts += 1
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
    // Signalled only while it runs: once reaped, its process id may be another process's.
    server.child.signal(signal)
    // A clean shutdown is bounded too: a server that does not exit in time is killed.
    if server.child.waitForExit(atMost: .seconds(30)) == nil {
      server.child.signal(SIGKILL)
      _ = server.child.waitForExit(atMost: .seconds(30))
    }
  }

  private func launch(executable: URL, within startTimeout: Duration) async throws {
    let (child, output) = try ServerChild.spawn(executable: executable, arguments: arguments)
    running.withLock { $0 = RunningServer(child: child) }
    let ready = await ServerOutput.waitForReadiness(on: output, within: startTimeout)
    if let failure = ready { throw RedisServerError.didNotStart(output: failure) }
  }
}

private struct RunningServer: Sendable {
  let child: ChildProcess
}

/// Starts redis-server as a child that neither inherits this process's signal state nor
/// outlives it.
///
/// The signal state: a child keeps the mask of the thread that spawned it and every signal this
/// process ignores, and the test runner's threads block SIGTERM (which redis-server never
/// unblocks, so it would ignore ``RedisServer/shutDown()``). ``ChildProcess`` resets both (with
/// ``ChildSignalDefaults/all``): no signal blocked, every disposition the default.
///
/// The lifetime: on Linux the server is started through `setpriv --pdeathsig KILL`, so the kernel
/// kills it when the thread that spawned it ends. That thread waits for the server's exit and
/// ends with it, or with this process: a test process killed (`kill -9`, a crash, a timeout)
/// leaves no server behind. Where `setpriv` is missing the server is started directly and only
/// ``RedisServer/stop()`` or `deinit` end it.
private enum ServerChild {
  static let setpriv: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Spawns the server (``ChildProcess``: reaped on a thread of its own, which lives as long as
  /// it does); returns it and the read end of its output (stdout and stderr).
  static func spawn(executable: URL, arguments: [String]) throws -> (ChildProcess, Int32) {
    var command = [executable.path] + arguments
    #if os(Linux)
      if let setpriv { command = [setpriv, "--pdeathsig", "KILL", "--"] + command }
    #endif
    let output: (readEnd: Int32, writeEnd: Int32)
    do {
      output = try ChildProcess.pipe()
    } catch {
      throw RedisServerError.didNotStart(output: "\(error)")
    }
    // The server's copy is the only one left once it has started: its exit ends the output.
    defer { close(output.writeEnd) }
    do {
      let child = try ChildProcess(
        command[0], arguments: Array(command.dropFirst()), standardInput: .nullDevice,
        standardOutput: .descriptor(output.writeEnd), standardError: .descriptor(output.writeEnd),
        signalDefaults: .all)
      return (child, output.readEnd)
    } catch {
      close(output.readEnd)
      throw RedisServerError.didNotStart(output: "\(error)")
    }
  }
}

/// Reads the server's output on a thread of its own for as long as it runs (so that its log
/// never fills the pipe), and reports when it says it is ready.
private enum ServerOutput {
  static let readyMarker = "Ready to accept connections"

  /// Nil once the server is ready; its output so far when it exited first or `within` passed.
  static func waitForReadiness(on descriptor: Int32, within limit: Duration) async -> String? {
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
        // Closed here, by its only reader, so that it is never closed under a read.
        close(descriptor)
      }
      reader.start()
    }
  }

  private static func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.suffix(2000), as: UTF8.self).replacingOccurrences(of: "\n", with: " | ")
  }
}

private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
  #else
    Darwin.read(descriptor, buffer, count)
  #endif
}
