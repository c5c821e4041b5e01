// Issue 10, defects 4, 7 and 9 through the built binary: a closed stdin, catalogs that are not
// catalogs, a byte-order mark, an unreadable number and a term too long to send.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct HostileUserTests {
  private func bash(_ script: String) async throws -> SubprocessResult {
    try await Subprocess.run(
      URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", script, "bash", try toolBinary().path])
  }

  @Test func aClosedStandardInputIsOneLineAndStatus66() async throws {
    let result = try await bash(#""$1" --format jsonl <&-"#)
    #expect(result.status == 66)
    #expect(result.stderr == "Error: standard input is closed; pipe keystrokes in, or give --input PATH\n")
    #expect(result.stdout == "")
  }

  @Test func devNullAsACatalogSaysItGaveNoData() async throws {
    let result = try await bash(#""$1" --catalog /dev/null --input /dev/null"#)
    #expect(result.status == 66)
    #expect(result.stderr.contains("is not JSON: it is a device that gave no data"))
  }

  @Test func anEndlessStreamThatIsNotACatalogIsRefusedFromItsFirstBytes() async throws {
    // `yes` never ends: reading it whole first would never finish.
    let result = try await bash(#"yes garbage | "$1" --catalog /dev/stdin --input /dev/null"#)
    #expect(result.status == 66)
    #expect(result.stderr.contains("is not JSON: it begins with 'g'"))
  }

  @Test func aCatalogOverTheCapIsRefusedBeforeItIsRead() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID()).json")
    #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
    defer { try? FileManager.default.removeItem(at: file) }
    #expect(truncate(file.path, 129 << 20) == 0)
    let result = try await bash(#""$1" --catalog '"# + file.path + #"' --input /dev/null"#)
    #expect(result.status == 66)
    #expect(result.stderr.contains("is larger than 128 MiB"))
  }

  @Test func anEmptySessionNameIsNoSession() async throws {
    // Defect 10: "" was one session to the router and another to the shutdown report.
    let input = Data((#"{"term":"tay","at_ms":0,"session":""}"# + "\n" + #"{"term":"taylor","at_ms":100}"# + "\n").utf8)
    let result = try await Subprocess.run(try toolBinary(), arguments: ["--replay", "--format", "jsonl"], input: input)
    #expect(!result.stdout.contains(#""session""#))
    // One field: "tay" is superseded by "taylor" before it settles.
    #expect(try toolEvents(result.stdout).filter { $0.type == "search" }.map(\.brief) == ["search taylor"])
  }

  @Test func aByteOrderMarkAnUnreadableNumberAndAHugeTermAreHandled() async throws {
    let input =
      Data([0xEF, 0xBB, 0xBF])
      + Data(
        ("tay\n" + #"{"term":"a","at_ms":1e400}"# + "\n"
          + String(repeating: "x", count: 1 << 20) + "\n").utf8)
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--format", "jsonl", "--debounce", "0ms"], input: input)
    let events = try toolEvents(result.stdout)
    // The mark is not part of the term: the first line searches "tay".
    #expect(events.filter { $0.type == "search" }.map(\.brief) == ["search tay"])
    #expect(
      events.filter { $0.type == "input_error" }.map(\.reason) == [
        #""at_ms" must be at most 2^53"#, "term longer than 1024 bytes",
      ])
    #expect(result.status == 0)
  }
}
