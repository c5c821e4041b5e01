// A child process of the benchmark, started with posix_spawn, stdout to /dev/null, and reaped
// with wait4 for its CPU time. Its peak RSS is not wait4's ru_maxrss: on Linux, exec records the
// replaced address space's high-water mark in the process's maximum, and a spawned child's
// replaced address space is the benchmark's own (posix_spawn shares it until exec; fork copies
// it), so ru_maxrss is never below the benchmark's RSS at the spawn: 61.8 MB for a live run that
// peaked at 33. The child's own mark is VmHWM in /proc/<pid>/status, which exec starts afresh;
// a thread reads it while the child runs, and stops before the child is reaped, so that no
// reading is of a process that reused its pid.
import Foundation
import LineIO
import Streams
import Synchronization

/// One run of an executable; ``wait(clock:)`` reaps it.
struct ChildRun {
  /// The write end of the child's stdin pipe when `feedsInput`, else -1. The caller writes and
  /// closes it.
  let input: Int32
  private let pid: pid_t
  private let start: ContinuousClock.Instant
  private let peak: PeakResidentSampler

  /// What ``wait(clock:)`` measured.
  struct Result {
    /// Wall time from spawn to exit.
    var seconds: Double
    /// The child's peak resident set size.
    var peakResidentMegabytes: Double
    /// The child's user and system CPU time.
    var cpuSeconds: Double
  }

  /// Starts `executable` with `arguments`, stdout to /dev/null (or the file `outputPath`),
  /// stderr inherited, and stdin a pipe from this process when `feedsInput` (else /dev/null).
  init(executable: String, arguments: [String], feedsInput: Bool = false, outputPath: String? = nil) throws {
    var ends: [Int32] = [-1, -1]
    if feedsInput {
      // Close-on-exec on both ends: the child gets the read end only as its dup'ed stdin, so the
      // write end's close here is the child's end of input.
      // (pipe2 is not imported without _GNU_SOURCE; nothing else spawns meanwhile.)
      guard pipe(&ends) == 0 else { throw BenchmarkFailure(description: "pipe: errno \(errno)") }
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }
    let null = open("/dev/null", O_RDWR | O_CLOEXEC)
    guard null >= 0 else { throw BenchmarkFailure(description: "open /dev/null: errno \(errno)") }
    defer {
      close(null)
      if feedsInput { close(ends[0]) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, feedsInput ? ends[0] : null, 0)
    let output = outputPath.map { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } ?? null
    guard output >= 0 else { throw BenchmarkFailure(description: "open \(outputPath ?? ""): errno \(errno)") }
    defer { if output != null { close(output) } }
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    start = ContinuousClock().now
    let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard status == 0 else {
      if feedsInput { close(ends[1]) }
      throw BenchmarkFailure(description: "cannot start \(executable): error \(status)")
    }
    self.pid = pid
    input = ends[1]
    peak = PeakResidentSampler(pid: pid, clock: ContinuousClock())
  }

  /// Waits for the child to exit; throws unless it exited with status 0.
  func wait(clock: ContinuousClock) throws -> Result {
    // Exited but not reaped first: until the reap its pid is not reused, so the sampler's last
    // reading is of this child.
    var exited = siginfo_t()
    while waitid(P_PID, id_t(pid), &exited, WEXITED | WNOWAIT) < 0 {
      guard errno == EINTR else { break }
    }
    let seconds = nanoseconds(start.duration(to: clock.now)) / 1e9
    let peakKilobytes = peak.stop()
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchmarkFailure(description: "wait4: errno \(errno)") }
    }
    // WIFEXITED and WEXITSTATUS are macros Swift does not import: low 7 bits 0 means exited.
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      throw BenchmarkFailure(description: "stream-search failed: wait status \(status)")
    }
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
      / 1e6
    // Without a reading (no /proc), ru_maxrss: an upper bound.
    let kilobytes = peakKilobytes ?? Int(usage.ru_maxrss)
    return Result(seconds: seconds, peakResidentMegabytes: Double(kilobytes) / 1_024, cpuSeconds: cpu)
  }
}

/// Reads a child's VmHWM (its own peak RSS since exec) every 2 ms of `clock` on a thread of its
/// own, until ``stop()``. The mark only rises, so the last reading before the child exits is its
/// peak but for what it grew in its last 2 ms.
private final class PeakResidentSampler: Sendable {
  /// The highest reading in kB, -1 before the first.
  private let highest = Atomic(-1)
  /// Fired by ``stop()``; nil when no pipe could be made (then nothing is read).
  private let stopSignal: CancellationSignal? = try? CancellationSignal()
  private let finished = DispatchSemaphore(value: 0)

  init(pid: pid_t, clock: ContinuousClock) {
    guard let stopSignal else {
      finished.signal()
      return
    }
    let path = "/proc/\(pid)/status"
    let thread = Thread { [self] in
      while !stopSignal.isSignalled {
        if let kilobytes = Self.highWaterMark(path: path) {
          _ = highest.max(kilobytes, ordering: .relaxed)
        }
        // Until the next reading is due on the clock, or until stopped.
        let due = clock.now.advanced(by: .milliseconds(2))
        let left = clock.now.duration(to: due)
        var entry = pollfd(fd: stopSignal.readEnd, events: Int16(POLLIN), revents: 0)
        if left > .zero { _ = poll(&entry, 1, Int32(max(1, left.components.attoseconds / 1_000_000_000_000_000))) }
      }
      finished.signal()
    }
    thread.start()
  }

  /// Stops the readings and returns the highest, in kB; nil when none succeeded.
  @discardableResult
  func stop() -> Int? {
    stopSignal?.signal()
    finished.wait()
    let kilobytes = highest.load(ordering: .relaxed)
    return kilobytes < 0 ? nil : kilobytes
  }

  /// The `VmHWM:` line of a /proc status file, in kB.
  private static func highWaterMark(path: String) -> Int? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return nil }
    return Int(line.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first ?? "")
  }
}
