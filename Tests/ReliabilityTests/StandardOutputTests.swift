// Standard output that goes away, fills the disk or cannot be written, in a shell as a user
// meets it: the reader leaving ends the run with status 0 and nothing on stderr; any other
// failure is one line and status 74. Never a crash.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct StandardOutputTests {
  /// Runs `script` in bash with the tool as `$1` and a fresh directory as `$2`, holding `files`
  /// (name: contents).
  private func bash(_ script: String, files: [String: String] = [:]) async throws -> SubprocessResult {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stdout-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for (name, contents) in files { try Data(contents.utf8).write(to: directory.appendingPathComponent(name)) }
    return try await Subprocess.run(
      URL(fileURLWithPath: "/bin/bash"),
      arguments: ["-c", script, "bash", try toolBinary().path, directory.path])
  }

  @Test func aReaderThatTakesOneLineAndLeavesEndsALiveRunWithStatusZero() async throws {
    // The input is a FIFO the shell holds open, so the run goes on after `head -1` has left;
    // the next line's event is then written to a pipe with no reader, whatever the timing.
    // `--latency` makes the answers late, as a network source's always are.
    let result = try await bash(
      #"""
      mkfifo "$2/in"; exec 3<>"$2/in"; printf 'abba\n' >&3
      "$1" --latency 200ms <"$2/in" | { head -1 >/dev/null; exec 0<&-; printf 'queen\n' >&3; }
      echo "status ${PIPESTATUS[0]}" >&2
      """#)
    #expect(result.stderr == "status 0\n")
  }

  @Test func aReplayOfANetworkSourceWritesEachAnswerWhileItWaitsForTheNext() async throws {
    // A replay of the catalog hands its events over in batches; one of a network source waits
    // for real answers, and must write what it has meanwhile. "love" is never answered, so the
    // replay waits on it with its whole recording read; "taylor"'s results must come out then.
    try await withReplayWaitingForAnAnswer { tool, _ in
      // Held-back events would only come out when the search ends, an hour later: the bound
      // catches that.
      let written = await tool.waitForLine(
        containing: #""type":"results","seq":2,"at_ms":300,"term":"taylor""#, within: hangBound)
      // Killed: what a signal does to this wait is BlockedSignalTests' to check.
      tool.send(SIGKILL)
      _ = await tool.waitForExit()
      #expect(written, "the first answer was not written while the replay waited for the second")
    }
  }

  @Test func aReplayFedByHandWritesItsEventsWhileItWaitsForTheNextLine() async throws {
    // A replay hands its events to the writer in batches; the batch must not wait for the input
    // to end. The second keystroke moves time past the first one's debounce, so the first
    // one's results are due, and must be written while the tool waits for a third line.
    let tool = try RunningProcess(try toolBinary(), arguments: ["--replay", "--format", "jsonl"])
    tool.write(#"{"at_ms": 0, "term": "taylor"}"# + "\n" + #"{"at_ms": 1000, "term": "love"}"# + "\n")
    // Bounded: held-back events would never come, as the tool waits for input, and the test
    // must fail rather than hang.
    let written = await tool.waitForLine(
      containing: #""type":"results","seq":2,"at_ms":300,"term":"taylor""#, within: hangBound)
    tool.closeInput()
    #expect(await tool.waitForExit() == 0)
    #expect(written, "the first keystroke's results were not written while the replay waited for input")
  }

  @Test func manySessionsIntoHeadCEndWithStatusZero() async throws {
    let lines = (0..<2_000).map { #"{"term":"\#($0 % 2 == 0 ? "abba" : "queen")","session":"s\#($0)"}"# }
    let result = try await bash(
      #""$1" --input "$2/in" | head -c 300000 >/dev/null; echo "status ${PIPESTATUS[0]}" >&2"#,
      files: ["in": lines.joined(separator: "\n") + "\n"])
    #expect(result.stderr == "status 0\n")
  }

  @Test func aFullDiskIsOneLineAndStatus74() async throws {
    let result = try await bash(#"printf 'abba\n' | "$1" >/dev/full"#)
    #expect(result.status == 74)
    #expect(result.stderr == "Error: Cannot write to standard output: No space left on device\n")
  }

  @Test func anOutputOpenForReadingIsOneLineAndStatus74() async throws {
    let result = try await bash(#"printf 'abba\n' | "$1" 1</dev/null"#)
    #expect(result.status == 74)
    #expect(result.stderr == "Error: Cannot write to standard output: Bad file descriptor\n")
  }
}
