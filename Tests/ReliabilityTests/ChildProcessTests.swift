// The spawn primitive every test child goes through (TestSupport's ChildProcess): exit status, a
// death by signal, piped standard descriptors, no other descriptor in the child, and the signal
// state a child starts with (no signal blocked; SIGPIPE ignored as here, or default on request).
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ChildProcessTests {
  /// How `executable` ended and what it wrote to stdout, given `input` on stdin. With
  /// `outputReaderGone`, its stdout is a pipe whose read end is closed before it starts.
  private func run(
    _ executable: String, _ arguments: [String], input: String = "", outputReaderGone: Bool = false,
    defaultSIGPIPE: Bool = false
  ) async throws -> (exit: ChildExit, output: String) {
    Subprocess.ignoreSIGPIPE()
    let stdin = try ChildProcess.pipe()
    let stdout = try ChildProcess.pipe()
    if outputReaderGone { close(stdout.readEnd) }
    let child = try ChildProcess(
      executable, arguments: arguments, environment: ["LC_ALL": "C", "PATH": "/usr/bin:/bin"],
      standardInput: .descriptor(stdin.readEnd), standardOutput: .descriptor(stdout.writeEnd),
      standardError: .nullDevice, signalDefaults: defaultSIGPIPE ? .sigpipe : .inherited)
    close(stdin.readEnd)
    close(stdout.writeEnd)
    // Written and read at once, each on a thread of its own: the child may write more than a
    // pipe holds before it has read all of its input.
    let output = Collected()
    let done = DispatchGroup()
    OwnThread.run(in: done) {
      Subprocess.writeAll(Data(input.utf8), to: stdin.writeEnd)
      close(stdin.writeEnd)
    }
    if !outputReaderGone {
      OwnThread.run(in: done) {
        output.set(Data(readToEnd(stdout.readEnd)))
        close(stdout.readEnd)
      }
    }
    let exit = await child.waitForExit()
    await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
    return (exit, String(decoding: output.get(), as: UTF8.self))
  }

  @Test func theExitStatusIsTheChildsOwn() async throws {
    #expect(try await run("/bin/sh", ["-c", "exit 3"]).exit == ChildExit(status: 3, signaled: false))
    #expect(try await run("/bin/sh", ["-c", "exit 0"]).exit == ChildExit(status: 0, signaled: false))
  }

  @Test func aDeathBySignalIsReportedAsThatSignal() async throws {
    let (exit, _) = try await run("/bin/sh", ["-c", "kill -TERM $$"])
    #expect(exit == ChildExit(status: SIGTERM, signaled: true))
  }

  @Test func aSignalSentToTheChildEndsIt() async throws {
    let child = try ChildProcess("/bin/sleep", arguments: ["50"], standardInput: .nullDevice)
    #expect(child.exit == nil)
    child.signal(SIGKILL)
    #expect(await child.waitForExit() == ChildExit(status: SIGKILL, signaled: true))
    // Reaped: a later signal goes nowhere rather than to a process that reused the id.
    child.signal(SIGKILL)
    #expect(child.exit == ChildExit(status: SIGKILL, signaled: true))
  }

  @Test func standardInputAndOutputArePipedThrough() async throws {
    let text = (0..<20_000).map { "line \($0)\n" }.joined()  // more than a pipe holds
    let (exit, output) = try await run("/bin/cat", [], input: text)
    #expect(exit == ChildExit(status: 0, signaled: false))
    #expect(output == text)
  }

  @Test func theChildHasNoDescriptorButItsStandardThree() async throws {
    // A descriptor of this process left open across exec on purpose: the child must not have it.
    let leaked = open("/dev/null", O_RDONLY)
    #expect(leaked > 2)
    defer { close(leaked) }
    // ls's own descriptor of the directory it lists is the lowest free one: 3.
    let (exit, output) = try await run("/bin/ls", ["/proc/self/fd"])
    #expect(exit == ChildExit(status: 0, signaled: false))
    #expect(output.split(separator: "\n") == ["0", "1", "2", "3"])
  }

  @Test func aMissingExecutableThrowsWithItsErrno() {
    let error = #expect(throws: SpawnError.self) {
      _ = try ChildProcess("/nonexistent/program-\(UUID())")
    }
    #expect(error?.code == ENOENT)
  }

  @Test func withDefaultSIGPIPEAWriteWithNoReaderKillsTheChild() async throws {
    let (exit, _) = try await run("/usr/bin/yes", [], outputReaderGone: true, defaultSIGPIPE: true)
    #expect(exit == ChildExit(status: SIGPIPE, signaled: true))
  }

  @Test func otherwiseTheChildKeepsSIGPIPEIgnoredAndSeesEPIPE() async throws {
    let (exit, _) = try await run("/usr/bin/yes", [], outputReaderGone: true)
    #expect(exit == ChildExit(status: 1, signaled: false))
  }

  /// The `SigBlk` and `SigIgn` masks of a child started from a thread that blocks SIGTERM.
  private func signalMasks(_ defaults: ChildSignalDefaults) async throws -> (blocked: UInt64, ignored: UInt64) {
    Subprocess.ignoreSIGPIPE()
    let output = try await OwnThread.value { () -> String in
      var blocking = sigset_t()
      sigemptyset(&blocking)
      sigaddset(&blocking, SIGTERM)
      pthread_sigmask(SIG_BLOCK, &blocking, nil)
      let stdout = try ChildProcess.pipe()
      let child = try ChildProcess(
        "/bin/grep", arguments: ["^Sig", "/proc/self/status"], standardOutput: .descriptor(stdout.writeEnd),
        signalDefaults: defaults)
      close(stdout.writeEnd)
      defer { close(stdout.readEnd) }
      let text = String(decoding: readToEnd(stdout.readEnd), as: UTF8.self)
      _ = child.waitForExit(atMost: .seconds(30))
      return text
    }
    func mask(_ name: String) -> UInt64 {
      let line = output.split(separator: "\n").first { $0.hasPrefix(name + ":") }
      return line.flatMap { UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) }
        ?? .max
    }
    return (mask("SigBlk"), mask("SigIgn"))
  }

  @Test func noSignalIsBlockedInTheChildAndSIGPIPEIsIgnoredUnlessAskedOtherwise() async throws {
    let pipeBit = UInt64(1) << UInt64(SIGPIPE - 1)
    let inherited = try await signalMasks(.inherited)
    #expect(inherited.blocked == 0)
    #expect(inherited.ignored & pipeBit != 0)
    let reset = try await signalMasks(.sigpipe)
    #expect(reset.blocked == 0)
    #expect(reset.ignored & pipeBit == 0)
  }

  @Test func everySignalAtItsDefaultIgnoresNone() async throws {
    // This process ignores SIGPIPE (and the signal mask test shows the child would keep that).
    Subprocess.ignoreSIGPIPE()
    let all = try await signalMasks(.all)
    #expect(all.blocked == 0)
    // Signals 1–31; glibc keeps its own two real-time signals (32 and 33) out of reach.
    let standard: UInt64 = (1 << 31) - 1
    #expect(all.ignored & standard == 0, "SigIgn \(String(all.ignored, radix: 16))")
  }
}
