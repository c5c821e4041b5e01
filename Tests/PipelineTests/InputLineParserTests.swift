// Tests of input line parsing: plain text, JSON keystrokes (escapes, key order, unknown fields),
// every reason for an invalid line, hostile nesting, and agreement between the byte-level fast
// path and the JSONSerialization reference on a corpus that includes the recorded traces.

import Foundation
import StreamsTesting
import TestSupport
import Testing

@testable import Pipeline

private typealias Reason = InputLineParser.Reason

/// `line` parsed as line 1.
private func parse(_ line: String) -> InputRecord { InputLineParser.parse(line, line: 1) }

/// A parser's reading as the record of line 1.
private func record(_ reading: LineReading) -> InputRecord {
  switch reading {
  case .success(let keystroke): .keystroke(keystroke, line: 1)
  case .failure(let refusal): .invalid(line: 1, reason: refusal.reason)
  }
}

/// What the fast path says about `line` (nil: it hands the line on).
private func fastPath(_ line: String) -> InputRecord? {
  var line = line
  return line.withUTF8 { JSONLineFastParser.parse($0) }.map(record)
}

/// What the JSONSerialization reference says about `line`.
private func reference(_ line: String) -> InputRecord {
  var line = line
  return record(line.withUTF8 { FoundationLineParser.parse($0) })
}

private func keystroke(_ term: String, at: Int64? = nil, session: String? = nil) -> InputRecord {
  .keystroke(Keystroke(term: term, atMilliseconds: at, session: session), line: 1)
}

@Suite struct InputLineParserTests {
  @Test func plainTextIsTheWholeLineWithItsWhitespace() {
    #expect(parse("  Tay lor\t ") == keystroke("  Tay lor\t "))
    #expect(parse("AC/DC & \"friends\" [live]") == keystroke("AC/DC & \"friends\" [live]"))
    #expect(parse("[1, 2]") == keystroke("[1, 2]"))
    #expect(parse("東京事変 🎸") == keystroke("東京事変 🎸"))
  }

  @Test func emptyLineIsAClearedField() {
    #expect(parse("") == keystroke(""))
    #expect(parse("   ") == keystroke("   "))
  }

  @Test func readsAJSONKeystrokeWithEveryField() {
    #expect(
      parse(#"{"term": "Tay", "at_ms": 1234, "session": "u42"}"#)
        == keystroke("Tay", at: 1234, session: "u42"))
    #expect(parse(#"{"term":""}"#) == keystroke(""))
  }

  @Test func acceptsKeysInAnyOrderAndAnyJSONWhitespace() {
    let expected = keystroke(" a b ", at: 7, session: "s")
    for line in [
      #"{"session":"s","at_ms":7,"term":" a b "}"#, #"{"at_ms":7,"term":" a b ","session":"s"}"#,
      " \t{ \"term\" :\t\" a b \" ,\r\n\"session\"\n:\"s\", \"at_ms\" : 7 }\r ",
    ] {
      #expect(parse(line) == expected, "\(line)")
    }
  }

  @Test func decodesEveryStringEscape() {
    let line = #"{"term": "q\" b\\ s\/ \b\f\n\r\t \u00e9 \u6771 \ud83c\udfb8 \u0000", "session": "\u0075\u0034\u0032"}"#
    #expect(parse(line) == keystroke("q\" b\\ s/ \u{8}\u{C}\n\r\t é 東 🎸 \u{0}", session: "u42"))
  }

  @Test func ignoresUnknownFieldsOfAnyKind() {
    let expected = keystroke("x", at: 1)
    for unknown in [
      #""n": -1.5e-3"#, #""b": true"#, #""f": false"#, #""z": null"#, ##""s": "\"}{""##,
      #""a": [1, {"term": 5}]"#, #""o": {"at_ms": -1}"#, #""\u0074erm2": 1"#,
    ] {
      #expect(
        parse(
          #"{"term": "x", "#
            + unknown + #", "at_ms": 1}"#) == expected, "\(unknown)")
    }
  }

  @Test func treatsNullAtAndSessionAsAbsent() {
    #expect(parse(#"{"term": "x", "at_ms": null, "session": null}"#) == keystroke("x"))
  }

  @Test func acceptsWholeNumbersWrittenAsFloats() {
    #expect(parse(#"{"term": "x", "at_ms": 1234.0}"#) == keystroke("x", at: 1234))
    #expect(parse(#"{"term": "x", "at_ms": 1.234e3}"#) == keystroke("x", at: 1234))
    #expect(parse(#"{"term": "x", "at_ms": -0}"#) == keystroke("x", at: 0))
    #expect(
      parse(#"{"term": "x", "at_ms": 9007199254740992}"#)
        == keystroke("x", at: 9_007_199_254_740_992))
  }

  @Test func theLastOfARepeatedFieldCounts() {
    #expect(parse(#"{"term": "a", "term": "b", "at_ms": 1, "at_ms": 2}"#) == keystroke("b", at: 2))
  }

  static let invalidLines: [(String, String)] = [
    ("a\u{0}b", Reason.nulByte),
    ("{\"term\": \"a\u{0}b\"}", Reason.nulByte),
    ("{", Reason.invalidJSON),
    (#"{"term": "a"} trailing"#, Reason.invalidJSON),
    (#"{"term": "a",}"#, Reason.invalidJSON),
    (#"{"term": "a", "x": [1, ]}"#, Reason.invalidJSON),
    (#"{term: "a"}"#, Reason.invalidJSON),
    (#"{"term": "\ud800"}"#, Reason.invalidJSON),
    (#"{"term": "\x"}"#, Reason.invalidJSON),
    ("{\"term\": \"a\tb\"}", Reason.invalidJSON),
    (#"{"term": "a", "n": 01}"#, Reason.invalidJSON),
    (#"{"at_ms": 1}"#, Reason.missingTerm),
    ("{}", Reason.missingTerm),
    (#"{"term": null}"#, Reason.nullTerm),
    (#"{"term": 5}"#, Reason.termNotString),
    (#"{"term": true}"#, Reason.termNotString),
    (#"{"term": ["a"]}"#, Reason.termNotString),
    (#"{"term": {"text": "a"}}"#, Reason.termNotString),
    (#"{"term": "a", "at_ms": "12"}"#, Reason.atNotNumber),
    (#"{"term": "a", "at_ms": true}"#, Reason.atNotNumber),
    (#"{"term": "a", "at_ms": [1]}"#, Reason.atNotNumber),
    (#"{"term": "a", "at_ms": -1}"#, Reason.atNegative),
    (#"{"term": "a", "at_ms": -0.5}"#, Reason.atNegative),
    (#"{"term": "a", "at_ms": 1.5}"#, Reason.atFractional),
    (#"{"term": "a", "at_ms": 9007199254740993}"#, Reason.atTooLarge),
    (#"{"term": "a", "at_ms": 18446744073709551616}"#, Reason.atTooLarge),
    (#"{"term": "a", "at_ms": 1e300}"#, Reason.atTooLarge),
    (#"{"term": "a", "at_ms": 1e400}"#, Reason.atTooLarge),
    // A malformed number is invalid JSON, not a number too large to read.
    (#"{"term": "a", "at_ms": -}"#, Reason.invalidJSON),
    (#"{"term": "a", "at_ms": 1.2.3}"#, Reason.invalidJSON),
    (#"{"term": "a", "x": 1e}"#, Reason.invalidJSON),
    (#"{"term": "a", "session": 7}"#, Reason.sessionNotString),
    (#"{"term": "a", "session": false}"#, Reason.sessionNotString),
    (#"{"term": "a", "session": {"id": "u1"}}"#, Reason.sessionNotString),
  ]

  @Test(arguments: invalidLines)
  func rejectsInvalidLinesWithTheirReason(line: String, reason: String) {
    #expect(parse(line) == .invalid(line: 1, reason: reason))
  }

  @Test func aJSONValueThatIsNotAnObjectIsInvalid() {
    // `parse` only sends lines starting with `{` to the JSON reader, so ask the reader directly.
    #expect(reference("[1, 2]") == .invalid(line: 1, reason: Reason.notAnObject))
    #expect(reference(#""term""#) == .invalid(line: 1, reason: Reason.notAnObject))
  }

  @Test func deepNestingIsRefusedWithoutRecursion() {
    // 100,000 levels would overflow the stack of a recursive reader; how fast the refusal is
    // belongs to the benchmark.
    let deep = #"{"term": "a", "x": "# + String(repeating: "[", count: 100_000)
    #expect(parse(deep) == .invalid(line: 1, reason: Reason.tooDeep))
    #expect(parse(String(repeating: "{", count: 100_000)) == .invalid(line: 1, reason: Reason.tooDeep))
  }

  @Test func nestingOfExactly32LevelsIsAccepted() {
    let nested = String(repeating: "[", count: 31) + String(repeating: "]", count: 31)
    #expect(parse(#"{"term": "a", "x": "# + nested + "}") == keystroke("a"))
    let tooDeep = "[" + nested + "]"
    #expect(parse(#"{"term": "a", "x": "# + tooDeep + "}") == .invalid(line: 1, reason: Reason.tooDeep))
    // Brackets inside strings do not count.
    let inString = "\"" + String(repeating: "[", count: 100) + "\\\"]\""
    #expect(
      parse(#"{"term": "# + inString + "}")
        == keystroke(String(repeating: "[", count: 100) + "\"]"))
  }
}

@Suite struct InputLineFastPathTests {
  /// The recorded traces beside the project (`../shared/traces/*.jsonl`), if present.
  static func sharedTraceLines() throws -> [String] {
    let directory = SharedFixtures.sharedFolder().appendingPathComponent("traces")
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
    return try names.filter { $0.hasSuffix(".jsonl") }.sorted().flatMap { name in
      try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
  }

  /// The project's own recordings: three seeded traces, one with eight sessions.
  static func projectTraceLines() -> [String] {
    [(1, 1), (2, 1), (3, 8)].flatMap { seed, sessions in
      GeneratedTrace.keys(seed: UInt64(seed), count: 1_000, sessions: sessions).map(\.jsonLine)
    }
  }

  /// Hand-made lines, the invalid lines, and generated variations of the flat shape.
  static func handMadeLines() -> [String] {
    var lines =
      InputLineParserTests.invalidLines.map(\.0) + [
        #"{"term": "Tay", "at_ms": 1234, "session": "u42"}"#, #"{"term":"\ud83c\udfb8\u00e9\n"}"#,
        #"{"term": "a", "at_ms": 0}"#, #"{"term": "a", "at_ms": 00}"#, #"{"term": "a", "at_ms": 1.0}"#,
        #"{"term": "a", "at_ms": 12345678901234567}"#, #"{"term": "a", "x": -0.0e+5}"#, #"{"term": "a", "x": -}"#,
        #"{"term": "a", "x": 1.}"#, #"{"term": "a", "x": .5}"#, #"{"term": "a", "x": tru}"#, #"{"term": "a" "x": 1}"#,
        #"{"term": "a", "session": "\udc00"}"#, #"{"term": "a", "session": "\ud800\u0041"}"#, #"{"term": "\u00"}"#,
        #"{"term": "a"}}"#, #"{"term": "a"]"#, #"{"term": "a", "term": "b"}"#, #"{"session": null, "term": "a"}"#,
        #"{"term":"a","session":"b","at_ms":5,"session":"c"}"#, "{\"term\": \"\u{7F}\u{2028}\"}", #"{"term"}"#,
        #"{"term": "a", "\u0061t_ms": 5}"#, #"{"term": "a",}"#, #"{,"term": "a"}"#, "{\"term\":\"a\"}\u{A0}",
        // Keys one byte short of or past the known ones, which are matched eight bytes at a time,
        // and known keys too near the end of the line for eight bytes.
        #"{"terms": "x", "term": "a"}"#, #"{"ter": "x", "term": "a"}"#, #"{"term": "a", "at_m": 5}"#,
        #"{"term": "a", "at_msx": 5}"#, #"{"term": "a", "sessio": "s"}"#, #"{"term": "a", "sessionx": "s"}"#,
        #"{"term""#, #"{"at_ms"#, #"{"session""#, #"{"te"#, #"{"term":"a","session"#, #"{"#,
      ]
    var generator = SplitMix64(seed: 3)
    let terms = [#""plain""#, #""esc\"aped\\""#, #""\u65e5\u672c""#, #""""#, #"" spaced  out ""#, "null", "12"]
    let ats = [#""at_ms": 5"#, #""at_ms": 0"#, #""at_ms": 9007199254740992"#, #""at_ms": 5.0"#, #""at_ms": -3"#]
    let sessions = [#""session": "u1""#, #""session": null"#, #""session": 1"#]
    let extras = [#""k": "v""#, #""k": [1]"#, #""k": {}"#, #""k": 1e5"#]
    let spaces = ["", " ", "\t", "\r\n", "  "]
    for _ in 0..<500 {
      var fields = [#""term": "# + (terms.randomElement(using: &generator) ?? "")]
      if Bool.random(using: &generator) { fields.append(ats.randomElement(using: &generator) ?? "") }
      if Bool.random(using: &generator) { fields.append(sessions.randomElement(using: &generator) ?? "") }
      if Bool.random(using: &generator) { fields.append(extras.randomElement(using: &generator) ?? "") }
      fields.shuffle(using: &generator)
      let space = { spaces.randomElement(using: &generator) ?? "" }
      let body = fields.joined(separator: space() + "," + space())
      lines.append(space() + "{" + space() + body + space() + "}" + space())
    }
    return lines
  }

  @Test func fastPathAgreesWithTheReferenceOnACorpus() throws {
    let corpus = Self.handMadeLines() + Self.projectTraceLines() + (try Self.sharedTraceLines())
    var answered = 0
    for line in corpus where !line.utf8.contains(0) {
      let expected = reference(line)
      if let fast = fastPath(line) {
        answered += 1
        #expect(fast == expected, "\(line)")
      }
      #expect(parse(line) == expected, "\(line)")
    }
    #expect(answered > 0)
  }

  @Test func fastPathAnswersEveryLineOfTheProjectsRecordings() throws {
    try Self.expectTheFastPathAnswersEvery(Self.projectTraceLines())
  }

  @Test(.enabled(if: SharedFolder.traces != nil, Comment(rawValue: SharedFixtures.absentNote)))
  func fastPathAnswersEveryLineOfTheSharedTraces() throws {
    let lines = try Self.sharedTraceLines()
    try #require(!lines.isEmpty, "no traces at \(SharedFixtures.sharedFolder().path)/traces; nothing to check")
    try Self.expectTheFastPathAnswersEvery(lines)
  }

  /// Every recording line (expected-event lines left out) is answered by the fast path with a
  /// timed keystroke.
  static func expectTheFastPathAnswersEvery(_ lines: [String]) throws {
    let inputs = lines.filter { !$0.contains(#""type""#) }
    #expect(!inputs.isEmpty)
    for line in inputs {
      let fast = try #require(fastPath(line), "\(line)")
      guard case .keystroke(let keystroke, _) = fast else {
        Issue.record("not a keystroke: \(line)")
        continue
      }
      #expect(keystroke.atMilliseconds != nil)
    }
  }

  @Test func fastPathHandsNestedUnknownValuesToTheReference() {
    let line = #"{"term": "a", "extra": {"nested": [1, 2]}}"#
    #expect(fastPath(line) == nil)
    #expect(parse(line) == keystroke("a"))
  }
}

@Suite struct RecordingLineTests {
  @Test(arguments: [
    Keystroke(term: "Tay", atMilliseconds: 1234, session: "u42"),
    Keystroke(term: "AC/DC & \"Queen\"\t\\ 宇多田 🎸", atMilliseconds: 0, session: nil),
    Keystroke(term: "", atMilliseconds: nil, session: "a\u{0}b"),
  ])
  func aRecordingLineReadsBackAsTheSameKeystroke(keystroke: Keystroke) {
    let line = keystroke.recordingLine
    #expect(line.hasSuffix("}\n"))
    #expect(parse(String(line.dropLast())) == .keystroke(keystroke, line: 1))
  }
}
