// BlockingLineReader over real files: every line in order across 64 KiB reads, bad lines as
// elements, the last line without newline, and a clear error for a file that is not there.
import Foundation
import LineIO
import Testing

@Suite struct LineInputBlockingReaderTests {
  @Test func readsEveryLineOfAFileLargerThanOneRead() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/input.txt"
    let expected = (1...20_000).map { "line \($0) ünïcödé" }
    try Data((expected.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))

    var reader = try BlockingLineReader.open(path: path)
    var lines: [InputLine] = []
    while let line = try reader.next() { lines.append(line) }
    #expect(lines.map(\.number) == Array(1...20_000))
    #expect(lines.compactMap(\.text) == expected)
    #expect(try reader.next() == nil)
  }

  @Test func deliversBadLinesAndALastLineWithoutNewline() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/input.txt"
    var bytes = Array("first\r\n".utf8) + [0xFF, 0x0A]
    bytes += Array(String(repeating: "x", count: 100).utf8) + [0x0A]
    bytes += Array("last".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))

    var reader = try BlockingLineReader.open(path: path, maxLineLength: 10)
    var lines: [InputLine] = []
    while let line = try reader.next() { lines.append(line) }
    #expect(
      lines == [
        InputLine(number: 1, content: .text("first")),
        InputLine(number: 2, content: .invalidUTF8(byteCount: 1)),
        InputLine(number: 3, content: .tooLong(byteCount: 100)),
        InputLine(number: 4, content: .text("last")),
      ])
  }

  @Test func readsADescriptorItDoesNotOwnWithoutClosingIt() throws {
    let pipe = try TestPipe()
    defer { pipe.closeBoth() }
    try writeAll("a\nb\n", to: pipe.writeEnd)
    var reader = BlockingLineReader(fileDescriptor: pipe.readEnd)
    #expect(try reader.next()?.text == "a")
    #expect(try reader.next()?.text == "b")
    close(pipe.writeEnd)
    #expect(try reader.next() == nil)
    #expect(fcntl(pipe.readEnd, F_GETFD) >= 0, "the caller's descriptor stays open")
  }

  @Test func reportsAMissingFileWithItsPathAndReason() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/missing.txt"
    #expect(throws: LineInputError.cannotOpen(path: path, errno: ENOENT)) {
      _ = try BlockingLineReader.open(path: path)
    }
    let message = LineInputError.cannotOpen(path: path, errno: ENOENT).description
    #expect(message == "cannot open '\(path)': No such file or directory")
  }
}
