// Standard output or standard error closed by the shell (`>&-`, `2>&-`) before the tool starts.
// A closed stdout is one line and status 74 at once, whatever the command; a closed stderr is
// filled with /dev/null, so that nothing opened later (a pipe, a file) is handed descriptor 2.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct StandardDescriptorTests {
  static let closedOutputLine = "Error: standard output is closed; send it somewhere, e.g. >/dev/null\n"

  /// Runs `script` in bash with the tool as `$1` and a directory as `$2` holding a one-line
  /// recording, `rec.jsonl`. `timeout` turns a hang into status 124.
  private func bash(_ script: String) async throws -> (result: SubprocessResult, directory: URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("descriptors-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data((#"{"term":"abba","at_ms":0}"# + "\n").utf8).write(to: directory.appendingPathComponent("rec.jsonl"))
    let result = try await Subprocess.run(
      URL(fileURLWithPath: "/bin/bash"),
      arguments: ["-c", script, "bash", try toolBinary().path, directory.path])
    return (result, directory)
  }

  @Test(arguments: ["", "--replay", #"--replay --input "$2/rec.jsonl""#, "record", "--help"])
  func aClosedStandardOutputIsOneLineAndStatus74AtOnce(_ command: String) async throws {
    let (result, directory) = try await bash(#"printf 'abba\n' | timeout 50 "$1" "# + command + " >&-")
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(result.status == 74)
    #expect(result.stderr == Self.closedOutputLine)
  }

  @Test func withALogFileAClosedStandardOutputIsReportedThereAndNoEventIsWrittenToIt() async throws {
    // The log file must not be opened on descriptor 1 and take the events.
    let (result, directory) = try await bash(#"printf 'abba\n' | timeout 50 "$1" --log "$2/log" >&-"#)
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(result.status == 74)
    let log = try String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)
    #expect(log == Self.closedOutputLine)
  }

  @Test func aClosedStandardErrorIsFilledWithDevNullAndTheRunGoesOn() async throws {
    // `exec` keeps the shell's process id, so /proc shows the tool's own descriptors.
    let tool = try RunningProcess(
      URL(fileURLWithPath: "/bin/bash"),
      arguments: ["-c", #"exec "$1" --format jsonl --verbose 2>&-"#, "bash", try toolBinary().path])
    tool.write("abba\n")
    await tool.waitForLine(containing: #""type":"results""#)
    // By now the run has opened what it opens (the signal pipes, the input's reader thread,
    // the catalog): none of it may have been handed descriptor 2.
    let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(tool.processIdentifier)/fd/2")
    tool.closeInput()
    #expect(await tool.waitForExit() == 0)
    #expect(target == "/dev/null")
    #expect(tool.lines.last?.contains(#""type":"summary""#) == true)
  }
}
