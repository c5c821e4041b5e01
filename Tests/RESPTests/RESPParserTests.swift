// The parser on byte streams built by hand: every reply type, replies split at every byte, and
// every way a reply can be malformed or too large.
import RESP
import Testing

@Suite struct RESPParserTests {
  private func parseAll(_ text: String, limits: RESPLimits = RESPLimits()) throws -> [RESPValue] {
    var parser = RESPParser(limits: limits)
    parser.append(Array(text.utf8))
    var values: [RESPValue] = []
    while let value = try parser.next() { values.append(value) }
    return values
  }

  private let sample =
    "+OK\r\n-ERR wrong\r\n:-42\r\n$5\r\nhe\r\no\r\n$0\r\n\r\n$-1\r\n*-1\r\n*0\r\n"
    + "*3\r\n:1\r\n*2\r\n$1\r\na\r\n*1\r\n+x\r\n$-1\r\n"

  private var sampleValues: [RESPValue] {
    [
      .simpleString("OK"), .error("ERR wrong"), .integer(-42), .bulkString(Array("he\r\no".utf8)),
      .bulkString([]), .null, .null, .array([]),
      .array([.integer(1), .array([.bulkString([0x61]), .array([.simpleString("x")])]), .null]),
    ]
  }

  @Test func readsEveryReplyType() throws {
    #expect(try parseAll(sample) == sampleValues)
  }

  @Test func readsRepliesSplitAtEveryByte() throws {
    var parser = RESPParser()
    var values: [RESPValue] = []
    for byte in sample.utf8 {
      parser.append([byte])
      while let value = try parser.next() { values.append(value) }
    }
    #expect(values == sampleValues)
    #expect(parser.isIdle)
  }

  @Test func waitsForTheRestOfAnIncompleteReply() throws {
    var parser = RESPParser()
    parser.append(Array("*2\r\n$3\r\nab".utf8))
    #expect(try parser.next() == nil)
    #expect(!parser.isIdle)
    parser.append(Array("c\r\n:7\r\n".utf8))
    #expect(try parser.next() == .array([.bulkString(Array("abc".utf8)), .integer(7)]))
  }

  @Test func bulkStringsAreBinarySafe() throws {
    let bytes = (0...255).map(UInt8.init)
    var parser = RESPParser()
    parser.append(Array("$256\r\n".utf8) + bytes + [0x0D, 0x0A])
    #expect(try parser.next() == .bulkString(bytes))
  }

  @Test(arguments: [
    ("$2000000000\r\n", "bulk string of 2000000000 bytes"),
    ("*2000000000\r\n", "array of 2000000000 elements"),
    ("$-2\r\n", "bulk string length"),
    ("*-7\r\n", "array length"),
    ("$abc\r\n", "bulk string length"),
    (":12a\r\n", "not a decimal number"),
    (":99999999999999999999\r\n", "not a decimal number"),
    (":\r\n", "not a decimal number"),
    ("HTTP/1.1 200 OK\r\n", "byte 0x48"),
    ("%1\r\n", "byte 0x25"),
    ("+OK\rX", "CR not followed by LF"),
    ("+OK\n", "LF without CR"),
    ("$3\r\nabcde\r\n", "not followed by CRLF"),
  ])
  func refusesMalformedReplies(bytes: String, reason: String) throws {
    var parser = RESPParser()
    parser.append(Array(bytes.utf8))
    let error = #expect(throws: RESPError.self) { try parser.next() }
    guard case .protocolViolation(let text) = error else {
      Issue.record("expected a protocol violation, got \(String(describing: error))")
      return
    }
    #expect(text.contains(reason))
    // The stream has lost its framing: the parser keeps refusing, even good bytes.
    parser.append(Array("+OK\r\n".utf8))
    #expect(throws: RESPError.self) { try parser.next() }
  }

  @Test func refusesArraysNestedBeyondTheDepth() throws {
    var parser = RESPParser(limits: RESPLimits(maxDepth: 16))
    parser.append(Array(String(repeating: "*1\r\n", count: 17).utf8))
    #expect(throws: RESPError.protocolViolation("arrays nested deeper than 16")) { try parser.next() }
  }

  @Test func acceptsArraysNestedToTheDepth() throws {
    let text = String(repeating: "*1\r\n", count: 16) + ":1\r\n"
    var expected = RESPValue.integer(1)
    for _ in 0..<16 { expected = .array([expected]) }
    #expect(try parseAll(text, limits: RESPLimits(maxDepth: 16)) == [expected])
  }

  @Test func refusesALineThatNeverEnds() throws {
    var parser = RESPParser(limits: RESPLimits(maxLineBytes: 1024))
    parser.append(Array("+".utf8) + [UInt8](repeating: 0x61, count: 1000))
    #expect(try parser.next() == nil)
    parser.append([UInt8](repeating: 0x61, count: 100))
    #expect(throws: RESPError.protocolViolation("a line longer than 1024 bytes")) { try parser.next() }
  }

  @Test func refusesAReplyOfTooManyValues() throws {
    let text = "*3\r\n*3\r\n:1\r\n:2\r\n:3\r\n:4\r\n:5\r\n"
    #expect(throws: RESPError.protocolViolation("a reply of more than 5 values")) {
      try parseAll(text, limits: RESPLimits(maxValues: 5))
    }
    // The count is per reply: two replies of three values each pass a limit of five.
    #expect(try parseAll("*2\r\n:1\r\n:2\r\n*2\r\n:3\r\n:4\r\n", limits: RESPLimits(maxValues: 5)).count == 2)
  }

  @Test func refusesAReplyOfTooManyBytes() throws {
    var parser = RESPParser(limits: RESPLimits(maxReplyBytes: 110))
    parser.append(Array("*1000\r\n".utf8))
    for _ in 0..<9 { parser.append(Array("$5\r\nhello\r\n".utf8)) }
    #expect(try parser.next() == nil)
    parser.append(Array("$5\r\nhello\r\n".utf8))
    #expect(throws: RESPError.protocolViolation("a reply longer than 110 bytes")) { try parser.next() }
  }

  @Test func refusesABulkStringOverTheLimitBeforeItsBytesArrive() throws {
    var parser = RESPParser(limits: RESPLimits(maxBulkBytes: 1000))
    parser.append(Array("$1001\r\n".utf8))
    #expect(throws: RESPError.protocolViolation("a bulk string of 1001 bytes (at most 1000 accepted)")) {
      try parser.next()
    }
  }

  @Test func readsTheDecimalsRedisSends() {
    #expect(RESPParserDecimal.read("0") == 0)
    #expect(RESPParserDecimal.read("-1") == -1)
    #expect(RESPParserDecimal.read("9223372036854775807") == Int64.max)
    #expect(RESPParserDecimal.read("9223372036854775808") == nil)
    #expect(RESPParserDecimal.read("-") == nil)
    #expect(RESPParserDecimal.read("+1") == nil)
  }
}

/// The parser's decimal rule, reached through a one-value reply.
private enum RESPParserDecimal {
  static func read(_ text: String) -> Int64? {
    var parser = RESPParser()
    parser.append(Array(":\(text)\r\n".utf8))
    return (try? parser.next())?.integer
  }
}
