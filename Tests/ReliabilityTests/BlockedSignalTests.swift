// Issue 10, defect 5: a signal stops the tool at every blocking point: opening a FIFO that has
// no writer, reading a stalled pipe in a replay, and writing to a reader that stopped reading.
// Each test waits until the tool's main thread sleeps in the kernel, then signals it and checks
// the status and that it exited within 100 ms.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct BlockedSignalTests {
  @Test func sigintEndsAReplayWaitingForAFIFOsWriter() async throws {
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID()).fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let tool = try BlockedTool(["--replay", "--input", fifo, "--format", "jsonl"])
    try await tool.waitUntilBlocked()
    let (status, elapsed) = await tool.signal(SIGINT)
    #expect(status == 130)
    #expect(elapsed < .milliseconds(100), "exited \(elapsed) after SIGINT")
    #expect(tool.output.hasSuffix("\n") && tool.output.split(separator: "\n").last?.contains("summary") == true)
  }

  @Test func sigtermEndsAReplayBlockedReadingAStalledPipe() async throws {
    let tool = try BlockedTool(["--replay", "--format", "jsonl"])
    tool.writeInput(#"{"term": "tay", "at_ms": 0}"# + "\n")
    try await tool.waitUntilBlocked()
    let (status, elapsed) = await tool.signal(SIGTERM)
    #expect(status == 143)
    #expect(elapsed < .milliseconds(100), "exited \(elapsed) after SIGTERM")
    #expect(tool.output.split(separator: "\n").last?.contains(#""input_lines":1"#) == true)
  }

  @Test func sigintEndsALiveRunBlockedWritingToAReaderThatStoppedReading() async throws {
    let tool = try BlockedTool(["--format", "jsonl", "--debounce", "1ms"], readOutput: false)
    // Forty sessions' answers are far more than a pipe holds (64 KiB): the writes block.
    tool.writeInput((0..<40).map { #"{"term": "tay", "session": "s\#($0)"}"# + "\n" }.joined())
    try await tool.waitUntilOutputIsFull()
    let (status, elapsed) = await tool.signal(SIGINT)
    #expect(status == 130)
    #expect(elapsed < .milliseconds(100), "exited \(elapsed) after SIGINT")
  }
}
