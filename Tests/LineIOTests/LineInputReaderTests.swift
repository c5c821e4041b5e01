// LineReader over real pipes and FIFOs: live delivery, follow mode across writers, cancellation
// of a reader blocked on an idle pipe, and backpressure that stops the reader thread. Every wait
// is on a read, a pipe or a hook of the reader thread, never on time.
import Foundation
import LineIO
import Testing

@Suite struct LineInputReaderTests {
  @Test func deliversEachLineOfAPipeAsSoonAsItIsWritten() async throws {
    let pipe = try TestPipe()
    defer { close(pipe.readEnd) }
    var lines = LineReader(fileDescriptor: pipe.readEnd).makeAsyncIterator()
    try writeAll("one\ntwo\n", to: pipe.writeEnd)
    #expect(try await lines.next() == InputLine(number: 1, content: .text("one")))
    #expect(try await lines.next() == InputLine(number: 2, content: .text("two")))
    try writeAll("three", to: pipe.writeEnd)
    close(pipe.writeEnd)
    #expect(try await lines.next() == InputLine(number: 3, content: .text("three")))
    #expect(try await lines.next() == nil)
    #expect(try await lines.next() == nil)
  }

  @Test func readsAFIFOOpenedBeforeItsWriter() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = try directory.makeFIFO("input")
    let reader = try LineReader.open(path: fifo)  // Must not wait for a writer.
    let writer = try openForWriting(fifo)
    try writeAll("a\n\u{FF}b\r\n", to: writer)
    close(writer)
    var received: [InputLine] = []
    for try await line in reader { received.append(line) }
    #expect(received.compactMap(\.text) == ["a", "\u{FF}b"])
    #expect(received.map(\.number) == [1, 2])
  }

  @Test func followModeReadsOneWriterAfterAnother() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = try directory.makeFIFO("input")
    let stopped = ReaderHookSignal<Void>()
    let reader = try LineReader.open(
      path: fifo, follow: true, probe: LineReaderProbe(readerDidStop: { stopped.fire(()) }))
    do {
      var lines = reader.makeAsyncIterator()
      let first = try openForWriting(fifo)
      try writeAll("a\nb", to: first)
      close(first)
      #expect(try await lines.next()?.text == "a")
      #expect(try await lines.next()?.text == "b", "the closing writer completes its last line")
      let second = try openForWriting(fifo)
      try writeAll("c\n", to: second)
      close(second)
      #expect(try await lines.next() == InputLine(number: 3, content: .text("c")))
    }
    // The iterator is gone: the reader thread, waiting for a third writer, must stop.
    await stopped.next()
  }

  @Test func followModeEndsARegularFileAtItsEnd() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/input.txt"
    let expected = (1...1_000).map { "line \($0)" }
    try Data(expected.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
    var received: [String] = []
    for try await line in try LineReader.open(path: path, follow: true) { received.append(line.text ?? "") }
    #expect(received == expected)
  }

  @Test func cancellingAConsumerBlockedOnAnIdlePipeStopsTheReader() async throws {
    let pipe = try TestPipe()
    defer { pipe.closeBoth() }  // The write end stays open throughout: no end of file.
    let stopped = ReaderHookSignal<Void>()
    let firstLine = ReaderHookSignal<String>()
    let reader = LineReader(fileDescriptor: pipe.readEnd, probe: LineReaderProbe(readerDidStop: { stopped.fire(()) }))
    try writeAll("ready\n", to: pipe.writeEnd)
    let received = await withTaskGroup(of: Int.self) { group in
      group.addTask {
        var count = 0
        do {
          for try await line in reader {
            count += 1
            firstLine.fire(line.text ?? "")
          }
        } catch {}
        return count
      }
      #expect(await firstLine.next() == "ready")
      group.cancelAll()
      return await group.next()
    }
    #expect(received == 1)
    await stopped.next()
  }

  @Test func aSlowConsumerStopsTheReaderThread() async throws {
    let pipe = try TestPipe()
    defer { close(pipe.readEnd) }
    _ = fcntl(pipe.writeEnd, F_SETFL, O_NONBLOCK)
    let blocked = ReaderHookSignal<Int>()
    let reader = LineReader(
      fileDescriptor: pipe.readEnd, probe: LineReaderProbe(readerWillBlock: { blocked.fire($0) }))
    var lines = reader.makeAsyncIterator()

    // Lines of 12 bytes in blocks under PIPE_BUF, so that each write is all or nothing.
    var written = 0
    func fillPipe() {
      while true {
        let block = (written..<written + 341).map { String(format: "line %06d\n", $0 + 1) }.joined()
        let count = block.withCString { write(pipe.writeEnd, $0, 341 * 12) }
        if count < 0 { return }  // EAGAIN: the pipe is full.
        written += 341
      }
    }
    fillPipe()
    let linesSplit = try #require(await blocked.next())
    fillPipe()  // The reader thread is blocked now, so what is written stays in the pipe.
    #expect(linesSplit <= FileDescriptorIO.chunkSize / 12 + 1, "at most one read ahead")
    #expect(unreadByteCount(pipe.readEnd) >= 4092, "the reader thread stopped reading")
    #expect(written > linesSplit)

    close(pipe.writeEnd)
    var count = 0
    while let line = try await lines.next() {
      count += 1
      #expect(line == InputLine(number: count, content: .text(String(format: "line %06d", count))))
    }
    #expect(count == written)
  }

  #if os(Linux)
    @Test func reportsAReadFailureAfterOpening() async throws {
      // This process's memory opens for reading, and reading its first page, never mapped, fails.
      let reader = try LineReader.open(path: "/proc/self/mem")
      await #expect(throws: LineInputError.readFailed(errno: EIO)) {
        for try await _ in reader {}
      }
    }
  #endif

  @Test func refusesADirectoryWhenOpeningIt() throws {
    // open(2) lets a directory be opened for reading; only a read would fail, too late to say which.
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect(throws: LineInputError.cannotOpen(path: directory.path, errno: EISDIR)) {
      _ = try LineReader.open(path: directory.path)
    }
    #expect(throws: LineInputError.cannotOpen(path: directory.path, errno: EISDIR)) {
      _ = try BlockingLineReader.open(path: directory.path)
    }
  }

  @Test func reportsAPathThatCannotBeOpened() throws {
    let path = NSTemporaryDirectory() + "/line-input-missing-\(UUID().uuidString)"
    #expect(throws: LineInputError.cannotOpen(path: path, errno: ENOENT)) {
      _ = try LineReader.open(path: path)
    }
  }
}
