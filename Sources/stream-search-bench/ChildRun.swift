// A child process of the benchmark, started with posix_spawn, stdout to /dev/null, and reaped
// with wait4 so its own peak RSS (ru_maxrss) can be read: Foundation's Process does not give it.
import Foundation

/// One run of an executable; ``wait(clock:)`` reaps it.
struct ChildRun {
  /// The write end of the child's stdin pipe when `feedsInput`, else -1. The caller writes and
  /// closes it.
  let input: Int32
  private let pid: pid_t
  private let start: ContinuousClock.Instant

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
  }

  /// Waits for the child to exit; throws unless it exited with status 0.
  func wait(clock: ContinuousClock) throws -> Result {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchmarkFailure(description: "wait4: errno \(errno)") }
    }
    let seconds = nanoseconds(start.duration(to: clock.now)) / 1e9
    // WIFEXITED and WEXITSTATUS are macros Swift does not import: low 7 bits 0 means exited.
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      throw BenchmarkFailure(description: "stream-search failed: wait status \(status)")
    }
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
      / 1e6
    return Result(seconds: seconds, peakResidentMegabytes: Double(usage.ru_maxrss) / 1_024, cpuSeconds: cpu)
  }
}
