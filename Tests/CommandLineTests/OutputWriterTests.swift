// OutputWriter against real pipes: every byte arrives, a closed reader gives `.closed` rather than
// a crash, every time. The write loop itself (EINTR, EAGAIN, errno, a stop) is Streams'
// FileDescriptorWriter, tested in StreamsTests.
import Foundation
import LineIO
import Streams
import Synchronization
import TestSupport
import Testing

@testable import stream_search

/// A pipe whose ends close when it goes away, unless closed earlier.
final class TestPipe {
  /// The read end, or -1 once closed.
  private(set) var readEnd: Int32
  /// The write end, or -1 once closed.
  private(set) var writeEnd: Int32

  /// A new pipe.
  init() throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  /// Closes the read end, so writes fail with EPIPE.
  func closeReadEnd() {
    if readEnd >= 0 { close(readEnd) }
    readEnd = -1
  }

  /// Closes the write end, so reads reach end of file.
  func closeWriteEnd() {
    if writeEnd >= 0 { close(writeEnd) }
    writeEnd = -1
  }

  /// Reads from the read end until end of file; the write end must be closed by then.
  func readAll() -> [UInt8] { readToEnd(readEnd) }

  deinit {
    closeReadEnd()
    closeWriteEnd()
  }
}

@Suite struct OutputWriterTests {
  /// Writes `bytes` through `pipe` while a thread of its own reads it, and returns what was read.
  /// (Neither a task nor a dispatch block: on Linux both run on the task threads, which a reader
  /// blocked on a pipe would take from every other test while this one waits for it.)
  private func roundTrip(_ bytes: [UInt8], through pipe: TestPipe) throws -> [UInt8] {
    let received = Collected()
    let reading = DispatchGroup()
    let readEnd = pipe.readEnd
    OwnThread.run(in: reading) {
      received.set(Data(readToEnd(readEnd)))
    }
    try OutputWriter(fileDescriptor: pipe.writeEnd).write(bytes)
    pipe.closeWriteEnd()
    reading.wait()
    return Array(received.get())
  }

  // 256 KiB: four times a Linux pipe's buffer, so the kernel takes it in several partial writes.
  @Test func writesEveryByteOfABufferLargerThanThePipe() throws {
    let bytes = (0..<(1 << 18)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    #expect(try roundTrip(bytes, through: TestPipe()) == bytes)
  }

  @Test func writesTextAsUTF8() throws {
    let pipe = try TestPipe()
    try OutputWriter(fileDescriptor: pipe.writeEnd).write("{\"term\":\"café 東京\"}\n")
    pipe.closeWriteEnd()
    #expect(String(decoding: pipe.readAll(), as: UTF8.self) == "{\"term\":\"café 東京\"}\n")
  }

  @Test func closedReaderGivesClosedEveryTimeInsteadOfACrash() throws {
    ignoreSIGPIPE()
    let pipe = try TestPipe()
    pipe.closeReadEnd()
    let writer = OutputWriter(fileDescriptor: pipe.writeEnd)
    #expect(throws: OutputError.closed) { try writer.write("first\n") }
    #expect(throws: OutputError.closed) { try writer.write("second\n") }
  }

  // Lines longer than PIPE_BUF reach a pipe in several write(2) calls when it is nearly full:
  // without the writer's ordering, two threads' lines would interleave.
  @Test func writesFromManyThreadsStayWholeAndInEachThreadsOrder() throws {
    let pipe = try TestPipe()
    let writer = OutputWriter(fileDescriptor: pipe.writeEnd)
    let received = Collected()
    let reading = DispatchGroup()
    let readEnd = pipe.readEnd
    OwnThread.run(in: reading) { received.set(Data(readToEnd(readEnd))) }
    let writing = DispatchGroup()
    for thread in 0..<8 {
      OwnThread.run(in: writing) {
        for index in 0..<100 {
          try? writer.write("\(thread) \(index) " + String(repeating: "x", count: 5_000) + "\n")
        }
      }
    }
    writing.wait()
    pipe.closeWriteEnd()
    reading.wait()
    let lines = String(decoding: received.get(), as: UTF8.self).split(separator: "\n")
    let parsed = lines.map { $0.split(separator: " ") }
    #expect(lines.count == 800)
    #expect(parsed.allSatisfy { $0.count == 3 && $0[2].count == 5_000 && $0[2].allSatisfy { $0 == "x" } })
    for thread in 0..<8 {
      #expect(parsed.filter { $0.first == "\(thread)" }.compactMap { Int($0[1]) } == Array(0..<100))
    }
  }

  @Test func writingNothingSucceedsWithoutTouchingTheDescriptor() throws {
    let pipe = try TestPipe()
    pipe.closeReadEnd()
    try OutputWriter(fileDescriptor: pipe.writeEnd).write([])
  }
}

@Suite struct LogTests {
  /// What `body` logs at `level`.
  private func logged(at level: Log.Level, _ body: (Log) -> Void) throws -> String {
    let pipe = try TestPipe()
    body(Log(level: level, writer: OutputWriter(fileDescriptor: pipe.writeEnd)))
    pipe.closeWriteEnd()
    return String(decoding: pipe.readAll(), as: UTF8.self)
  }

  private func everyKind(_ log: Log) {
    log.verbose(.network, "GET /search?term=abba")
    log.verbose(.cache, "hit abba")
    log.warning("skipped line 3: not JSON")
    log.error("cannot open keys.txt")
  }

  @Test func verboseWritesTopicLinesWarningsAndErrors() throws {
    #expect(
      try logged(at: .verbose, everyKind) == """
        [network] GET /search?term=abba
        [cache] hit abba
        Warning: skipped line 3: not JSON
        Error: cannot open keys.txt

        """)
  }

  @Test func normalLeavesOutTopicLines() throws {
    #expect(try logged(at: .normal, everyKind) == "Warning: skipped line 3: not JSON\nError: cannot open keys.txt\n")
  }

  @Test func quietWritesOnlyErrors() throws {
    #expect(try logged(at: .quiet, everyKind) == "Error: cannot open keys.txt\n")
  }

  @Test func levelFollowsVerboseAndQuiet() throws {
    #expect(Log(options: try searchOptions(["--verbose"])).level == .verbose)
    #expect(Log(options: try searchOptions(["--quiet"])).level == .quiet)
    #expect(Log(options: try searchOptions([])).level == .normal)
  }

  @Test func eachMessageStaysOnOneLine() throws {
    let line = try logged(at: .verbose) { $0.verbose(.input, "term \"a\nb\"\t\u{7}") }
    #expect(line == "[input] term \"a\\nb\"\\t\\u{07}\n")
  }

  @Test func verboseMessageIsNotBuiltWhenNotWritten() throws {
    let built = Mutex(false)
    func message() -> String {
      built.withLock { $0 = true }
      return "expensive"
    }
    _ = try logged(at: .normal) { $0.verbose(.cache, message()) }
    #expect(built.withLock { $0 } == false)
  }
}
