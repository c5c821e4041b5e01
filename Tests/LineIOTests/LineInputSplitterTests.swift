// LineSplitter's contract: lines split across reads at any byte, CRLF, a last line without a
// newline, bad lines (invalid UTF-8, over-long) reported once without stopping, NUL bytes kept.
import LineIO
import Testing

@Suite struct LineInputSplitterTests {
  /// Splits `chunks` in order, then finishes.
  private func split(_ chunks: [[UInt8]], maxLineLength: Int = 1 << 20) -> [InputLine] {
    var splitter = LineSplitter(maxLineLength: maxLineLength)
    var lines: [InputLine] = []
    for chunk in chunks { splitter.append(chunk, into: &lines) }
    splitter.finish(into: &lines)
    return lines
  }

  private func texts(_ values: [String]) -> [InputLine] {
    values.enumerated().map { InputLine(number: $0.offset + 1, content: .text($0.element)) }
  }

  @Test func givesTheSameLinesWhereverTheInputIsSplit() {
    let input = Array("héllo\r\n\nwörld 😀\r\n\r\nlast €".utf8)
    let expected = texts(["héllo", "", "wörld 😀", "", "last €"])
    #expect(split([input]) == expected)
    for cut in 0...input.count {
      #expect(split([Array(input[..<cut]), Array(input[cut...])]) == expected, "cut at \(cut)")
    }
    #expect(split(input.map { [$0] }) == expected, "one byte at a time")
  }

  @Test func stripsOnlyAReturnThatPrecedesANewline() {
    #expect(split([Array("a\rb\r\nc\r".utf8)]) == texts(["a\rb", "c\r"]))
  }

  @Test func deliversALastLineWithoutNewlineOnlyAtFinish() {
    var splitter = LineSplitter()
    var lines: [InputLine] = []
    splitter.append(Array("one\ntwo".utf8), into: &lines)
    #expect(lines == texts(["one"]))
    splitter.finish(into: &lines)
    #expect(lines == texts(["one", "two"]))
  }

  @Test func finishAddsNothingAfterATrailingNewline() {
    #expect(split([Array("one\n\n".utf8)]) == texts(["one", ""]))
    #expect(split([[]]).isEmpty)
  }

  @Test func reportsInvalidUTF8AndReadsTheNextLine() {
    let input: [UInt8] = [0x61, 0xFF, 0xFE, 0x0D, 0x0A] + Array("ok\n".utf8) + [0xC3]
    #expect(
      split([input]) == [
        InputLine(number: 1, content: .invalidUTF8(byteCount: 3)),
        InputLine(number: 2, content: .text("ok")),
        InputLine(number: 3, content: .invalidUTF8(byteCount: 1)),
      ])
  }

  @Test func rejectsEveryKindOfInvalidUTF8ButKeepsAGenuineReplacementCharacter() {
    let invalid: [[UInt8]] = [
      [0xC0, 0x80],  // Overlong NUL.
      [0xED, 0xA0, 0x80],  // UTF-16 surrogate.
      [0xF4, 0x90, 0x80, 0x80],  // Beyond U+10FFFF.
      [0xE2, 0x82],  // Truncated sequence.
      Array("a long line, longer than a small string: ".utf8) + [0x80],
    ]
    for bytes in invalid {
      #expect(split([bytes + [0x0A]]) == [InputLine(number: 1, content: .invalidUTF8(byteCount: bytes.count))])
    }
    let replacement = "\u{FFFD} is valid, and so is a long line with it: \u{FFFD}"
    #expect(split([Array(replacement.utf8)]) == texts([replacement]))
  }

  @Test func reportsAnOverLongLineOnceAndReadsTheNextLine() {
    let input = Array("abcdefghij\r\nok\nabcd\r\nabcde\r\nxyzxyz".utf8)
    let expected = [
      InputLine(number: 1, content: .tooLong(byteCount: 10)),
      InputLine(number: 2, content: .text("ok")),
      InputLine(number: 3, content: .text("abcd")),
      InputLine(number: 4, content: .tooLong(byteCount: 5)),
      InputLine(number: 5, content: .tooLong(byteCount: 6)),
    ]
    #expect(split([input], maxLineLength: 4) == expected)
    #expect(split(input.map { [$0] }, maxLineLength: 4) == expected, "one byte at a time")
    for cut in 0...input.count {
      #expect(split([Array(input[..<cut]), Array(input[cut...])], maxLineLength: 4) == expected)
    }
  }

  @Test func countsAnOverLongLineFedInManyChunks() {
    var splitter = LineSplitter(maxLineLength: 1024)
    var lines: [InputLine] = []
    let chunk = [UInt8](repeating: 0x78, count: 4096)
    for _ in 0..<256 { splitter.append(chunk, into: &lines) }
    #expect(lines.isEmpty)
    splitter.append(Array("\nnext\n".utf8), into: &lines)
    #expect(
      lines == [
        InputLine(number: 1, content: .tooLong(byteCount: 4096 * 256)),
        InputLine(number: 2, content: .text("next")),
      ])
  }

  @Test func passesNULBytesThroughAsText() {
    #expect(split([[0x61, 0x00, 0x62, 0x0A, 0x00]]) == texts(["a\u{0}b", "\u{0}"]))
  }

  @Test func numbersContinueAfterFinish() {
    var splitter = LineSplitter(firstLineNumber: 7)
    var lines: [InputLine] = []
    splitter.append(Array("a".utf8), into: &lines)
    splitter.finish(into: &lines)
    splitter.append(Array("b\n".utf8), into: &lines)
    #expect(lines.map(\.number) == [7, 8])
    #expect(lines.map(\.text) == ["a", "b"])
  }
}
