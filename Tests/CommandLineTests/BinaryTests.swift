// The built `stream-search` binary run as a child process: what it writes to stdout and stderr and
// the status it exits with, exactly.
import Foundation
import TestSupport
import Testing

@testable import stream_search

@Suite struct BinaryTests {
  /// Runs the built `stream-search` with `arguments` and `input`.
  private func run(_ arguments: [String], input: Data = Data()) async throws -> SubprocessResult {
    try await Subprocess.run(try toolBinary(), arguments: arguments, input: input)
  }

  @Test func helpGoesToStandardOutputWithStatusZero() async throws {
    let result = try await run(["--help"])
    #expect(result.stdout == (try Golden.text("help.txt")))
    #expect(result.stderr == "")
    #expect(result.status == ExitStatus.success.rawValue && !result.terminatedBySignal)
  }

  @Test func shortHelpAfterOtherOptionsPrintsTheSameHelp() async throws {
    let result = try await run(["--limit", "abc", "-h"])
    #expect(result.stdout == (try Golden.text("help.txt")))
    #expect(result.status == 0)
  }

  @Test func versionPrintsNameAndVersion() async throws {
    let result = try await run(["--version"])
    #expect(result.stdout == "stream-search 0.1.0\n")
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  @Test(
    arguments: try Golden.errorCases().filter {
      // The first three, and issue 10's refused values: each was accepted before and misbehaved.
      [
        "--debounc 300ms", "--limit abc", "record --inptu keys.txt", "--cache-size 1000000000",
        "--source http://127.0.0.1:8080/search?media=software&term=evil", "--source http://127.0.0.1:8080/search#top",
        "--replay --follow --input keys.fifo",
        // A first-time user's slips: a mistyped subcommand, help for one, a term or a file as an
        // argument, and --record where there is no screen to record.
        "recrod", "help recrod", "taylor --replay", "keys.txt", "--record session.jsonl",
      ].contains($0.testDescription)
    })
  func usageErrorGoesToStandardErrorWithStatus64(golden: Golden.ErrorCase) async throws {
    let result = try await run(golden.arguments)
    #expect(result.stdout == "")
    #expect(result.stderr == golden.report)
    #expect(result.status == ExitStatus.usage.rawValue && !result.terminatedBySignal)
  }

  @Test func closedStandardOutputEndsQuietlyWithStatusZero() async throws {
    // Undo the SIGPIPE this test process ignores, so the binary must ignore it by itself.
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--help"], standardOutputClosed: true,
      defaultSIGPIPE: true)
    #expect(result.stderr == "")
    #expect(result.status == ExitStatus.success.rawValue && !result.terminatedBySignal)
  }

  @Test func helperFeedsStandardInputLargerThanAPipeWithoutDeadlock() async throws {
    // 256 KiB of one-letter lines: more than a pipe holds, so the helper must write while reading.
    let lines = Data(repeating: 0, count: 1 << 18).enumerated().map { $0.offset % 2 == 0 ? UInt8(ascii: "a") : 10 }
    let result = try await run(["--format", "jsonl"], input: Data(lines))
    #expect(result.status == 0)
    #expect(result.stdout.contains(#""input_lines":131072"#))
  }
}
