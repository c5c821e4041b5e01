// Runs a built executable as a child process with given standard input, and collects its standard
// output, standard error and exit status: for end-to-end tests of the real binary.
import Foundation
import LineIO
import Streams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a child process ended and what it wrote.
public struct SubprocessResult: Equatable, Sendable {
  /// The exit status, or the signal number when ``terminatedBySignal`` is true.
  public let status: Int32
  /// True when a signal ended the process rather than `exit`.
  public let terminatedBySignal: Bool
  /// Everything written to standard output.
  public let standardOutput: Data
  /// Everything written to standard error.
  public let standardError: Data

  /// Standard output decoded as UTF-8 (invalid bytes replaced).
  public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
  /// Standard error decoded as UTF-8 (invalid bytes replaced).
  public var stderr: String { String(decoding: standardError, as: UTF8.self) }
}

/// Runs executables as child processes and waits for them.
///
/// Standard input is written and both outputs are read on threads of their own (``OwnThread``,
/// not dispatch's, which are the task threads) while the child runs, so a child that writes more
/// than a pipe holds (64 KiB) before reading all its input cannot deadlock the test. Nothing
/// waits on time and no task thread is blocked:
/// ``run(_:arguments:input:environment:standardOutputClosed:defaultSIGPIPE:)`` resumes when the
/// child has exited and both of its outputs have reached end of file. Children start through
/// ``ChildProcess`` (posix_spawn), not Foundation's Process, which can crash this process on Linux.
///
/// ```swift
/// let result = try await Subprocess.run(try BuiltProducts.executable("stream-search"), arguments: ["--version"])
/// #expect(result.stdout == "stream-search 0.1.0\n")
/// #expect(result.stderr == "")
/// #expect(result.status == 0 && !result.terminatedBySignal)
/// ```
public enum Subprocess {
  /// Runs `executable` with `arguments`, feeding it `input` on standard input (then end of file),
  /// and returns once it has exited. `environment` nil passes this process's environment on.
  /// Either way the child gets a cache directory of its own (``IsolatedCache``) unless
  /// `environment` names one.
  ///
  /// If the child exits without reading all of `input`, the rest is dropped (the write sees EPIPE,
  /// which does not kill the test process: SIGPIPE is ignored here).
  ///
  /// With `standardOutputClosed`, the child's standard output is a pipe whose reader has already
  /// gone (as in `stream-search | head` after `head` exits): its first write there fails with
  /// EPIPE, and ``SubprocessResult/standardOutput`` is empty.
  ///
  /// - Important: The child inherits this process's ignored SIGPIPE, so a child that forgets to
  ///   ignore SIGPIPE itself still sees EPIPE here. To test that it ignores it, pass
  ///   `defaultSIGPIPE`: the child then starts with SIGPIPE's default action, as a shell would
  ///   start it. No signal is blocked in the child either way (``ChildProcess``).
  /// - Throws: ``SpawnError`` when the child cannot be started.
  public static func run(
    _ executable: URL,
    arguments: [String] = [],
    input: Data = Data(),
    environment: [String: String]? = nil,
    standardOutputClosed: Bool = false,
    defaultSIGPIPE: Bool = false
  ) async throws -> SubprocessResult {
    Self.ignoreSIGPIPE()
    let stdin = try ChildProcess.pipe()
    let stdout = try ChildProcess.pipe()
    let stderr = try ChildProcess.pipe()
    // With `standardOutputClosed`, the child's stdout is a pipe whose read end is closed first.
    if standardOutputClosed { close(stdout.readEnd) }
    let child: ChildProcess
    do {
      child = try ChildProcess(
        executable.path, arguments: arguments, environment: IsolatedCache.environment(environment),
        standardInput: .descriptor(stdin.readEnd), standardOutput: .descriptor(stdout.writeEnd),
        standardError: .descriptor(stderr.writeEnd), signalDefaults: defaultSIGPIPE ? .sigpipe : .inherited)
    } catch {
      for end in [stdin.readEnd, stdin.writeEnd, stdout.writeEnd, stderr.readEnd, stderr.writeEnd] { close(end) }
      if !standardOutputClosed { close(stdout.readEnd) }
      throw error
    }
    // The child's ends: its own copies are the only ones left, so its exit ends the outputs.
    for end in [stdin.readEnd, stdout.writeEnd, stderr.writeEnd] { close(end) }

    let output = Collected()
    let errorOutput = Collected()
    let finished = DispatchGroup()
    // Each of these blocks until the child exits: on threads of their own, never dispatch's.
    OwnThread.run(in: finished) {
      writeAll(input, to: stdin.writeEnd)
      close(stdin.writeEnd)
    }
    if !standardOutputClosed {
      OwnThread.run(in: finished) {
        output.set(Data(readToEnd(stdout.readEnd)))
        close(stdout.readEnd)
      }
    }
    OwnThread.run(in: finished) {
      errorOutput.set(Data(readToEnd(stderr.readEnd)))
      close(stderr.readEnd)
    }
    let exit = await child.waitForExit()
    await withCheckedContinuation { continuation in
      finished.notify(queue: .global()) { continuation.resume() }
    }
    return SubprocessResult(
      status: exit.status,
      terminatedBySignal: exit.signaled,
      standardOutput: output.get(),
      standardError: errorOutput.get()
    )
  }

  /// Makes a write to a pipe whose reader has gone fail with EPIPE instead of killing this process.
  public static func ignoreSIGPIPE() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Writes `data` in full to `descriptor` (Streams' write loop); stops quietly at the first
  /// failure (EPIPE: the child stopped reading).
  public static func writeAll(_ data: Data, to descriptor: Int32) {
    try? FileDescriptorWriter(fileDescriptor: descriptor).write([UInt8](data))
  }
}
