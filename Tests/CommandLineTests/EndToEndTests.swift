// The built binary as users run it: replaying the Examples recordings byte for byte, plain lines
// through a pipe, a reader that goes away, signals, bad lines, and a FIFO with --follow.
import Foundation
import TestSupport
import Testing

@Suite struct EndToEndTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let recordings = ["taylor-twice", "fast-typist", "two-sessions"]

  /// `count` runs of the built binary with `arguments` and `input`, one after another (each costs
  /// seconds of CPU in a debug build: run at once, they would starve the rest of the suite). Each
  /// process hashes with a seed of its own, which is what could make one run differ from another.
  static func runs(_ count: Int, arguments: [String], input: Data = Data()) async throws -> [SubprocessResult] {
    let binary = try toolBinary()
    var results: [SubprocessResult] = []
    for _ in 0..<count { results.append(try await Subprocess.run(binary, arguments: arguments, input: input)) }
    return results
  }

  @Test(arguments: recordings)
  func replayingAnExampleGivesItsExpectedOutputByteForByteInEveryProcess(recording: String) async throws {
    let input = Self.root.appendingPathComponent("Examples/recordings/\(recording).jsonl").path
    let expected = try Data(contentsOf: Self.root.appendingPathComponent("Examples/expected/\(recording).jsonl"))
    let results = try await Self.runs(4, arguments: ["--replay", "--latency", "400ms", "--input", input])
    for (run, result) in results.enumerated() {
      #expect(result.status == 0)
      #expect(result.stderr == "")
      #expect(result.standardOutput == expected, "run \(run + 1) of \(recording) differs")
    }
  }

  @Test func aReplayEndingWithPendingTermsInManySessionsIsIdenticalInEveryProcess() async throws {
    // Every session has a term pending when the input ends: they all settle at one instant, and
    // must come out in the same order whatever order a process's dictionaries iterate in (each
    // process hashes with a seed of its own: a wrong order would match by chance once in 8!).
    let sessions = ["zed", "amy", "kim", "bob", "lea", "max", "ivy", "tom"]
    let recording =
      sessions.enumerated().map { index, session in
        #"{"at_ms": \#(index * 10), "term": "radio\#(index)", "session": "\#(session)"}"#
      }.joined(separator: "\n") + "\n"
    let results = try await Self.runs(4, arguments: ["--replay"], input: Data(recording.utf8))
    let first = try #require(results.first).standardOutput
    for result in results {
      #expect(result.status == 0)
      #expect(result.standardOutput == first)
    }
    let searched = try jsonObjects(String(decoding: first, as: UTF8.self))
      .filter { $0["type"] as? String == "search" }.compactMap { $0["session"] as? String }
    #expect(searched == sessions.sorted())
  }

  @Test func theSecondTaylorIsACacheHitWithNoRequest() async throws {
    let input = Self.root.appendingPathComponent("Examples/recordings/taylor-twice.jsonl").path
    let result = try await Subprocess.run(try toolBinary(), arguments: ["--replay", "--input", input])
    let results = try jsonObjects(result.stdout).filter { $0["type"] as? String == "results" }
    #expect(results.map { $0["source"] as? String } == ["load", "cache"])
    let summary = try #require(try jsonObjects(result.stdout).last)
    #expect(summary["requests"] as? Int == 3)
  }

  @Test func plainLinesThroughAPipeAreSearched() async throws {
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--format", "jsonl"], input: Data("radiohead\n".utf8))
    let types = try jsonObjects(result.stdout).map { $0["type"] as? String }
    #expect(types == ["search", "results", "summary"])
    let search = try jsonObjects(result.stdout)[0]
    #expect(search["term"] as? String == "radiohead")
    #expect(result.status == 0)
  }

  @Test func aReaderThatGoesAwayEndsTheRunQuietlyWithStatusZero() async throws {
    let input = Self.root.appendingPathComponent("Examples/recordings/two-sessions.jsonl").path
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--replay", "--input", input], standardOutputClosed: true, defaultSIGPIPE: true)
    #expect(result.stderr == "")
    #expect(result.status == 0 && !result.terminatedBySignal)
  }

  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func aSignalCancelsTheSearchInFlightWritesTheSummaryAndExits(signal: Int32, status: Int32) async throws {
    // The timeout is longer than any wait for the signal, so only the signal can end the search.
    let process = try RunningProcess(
      try toolBinary(), arguments: ["--latency", "600s", "--timeout", "900s", "--format", "jsonl"])
    process.write("taylor\n")
    await process.waitForLine(containing: #""type":"search""#)
    process.send(signal)
    #expect(await process.waitForExit() == status)
    let types = try process.lines.map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(types.map { $0["type"] as? String } == ["search", "cancelled", "summary"])
    #expect(types[1]["reason"] as? String == "shutdown")
  }

  @Test func badLinesEachGiveAnInputErrorAndTheLinesAfterThemAreStillSearched() async throws {
    var input = Data()
    input.append(Data("{\"term\": \n".utf8))  // 1: invalid JSON
    input.append(Data([0x66, 0xFF, 0xFE, 0x0A]))  // 2: invalid UTF-8
    input.append(Data(repeating: UInt8(ascii: "x"), count: (1 << 20) + 10))  // 3: longer than 1 MiB
    input.append(Data("\n".utf8))
    input.append(Data("{\"at_ms\": 5}\n".utf8))  // 4: missing term
    input.append(Data("{\"term\": 5}\n".utf8))  // 5: term of the wrong type
    input.append(Data("ab\u{0}cd\n".utf8))  // 6: NUL byte
    input.append(Data("radiohead\n".utf8))  // 7: good
    let result = try await Subprocess.run(try toolBinary(), arguments: ["--format", "jsonl"], input: input)
    let all = try jsonObjects(result.stdout)
    let errors = all.filter { $0["type"] as? String == "input_error" }
    #expect(errors.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6])
    #expect(errors.allSatisfy { !(($0["reason"] as? String) ?? "").isEmpty })
    #expect(all.contains { $0["type"] as? String == "search" && $0["term"] as? String == "radiohead" })
    let summary = try #require(all.last)
    #expect(summary["input_lines"] as? Int == 7)
    #expect(summary["input_errors"] as? Int == 6)
    #expect(result.status == 0)
  }

  @Test func aReplayLineGoingBackInTimeIsAnInputErrorAndTheReplayGoesOn() async throws {
    let recording = """
      {"at_ms": 0, "term": "ra"}
      {"at_ms": 500, "term": "radio"}
      {"at_ms": 100, "term": "zz"}
      radiohead
      {"at_ms": 900, "term": "radiohead"}
      """
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--replay"], input: Data((recording + "\n").utf8))
    let all = try jsonObjects(result.stdout)
    let errors = all.filter { $0["type"] as? String == "input_error" }
    #expect(errors.map { $0["line"] as? Int } == [3, 4])
    let searched = all.filter { $0["type"] as? String == "search" }.map { $0["term"] as? String }
    #expect(searched == ["ra", "radio", "radiohead"])
  }

  @Test func aFIFOWithFollowKeepsReadingAfterItsWritersClose() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-search-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("keys").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let process = try RunningProcess(try toolBinary(), arguments: ["--input", fifo, "--follow", "--format", "jsonl"])
    for term in ["taylor", "radiohead"] {
      // Each writer opens, writes one line and closes, as `echo taylor > keys` would.
      let writer = try #require(FileHandle(forWritingAtPath: fifo))
      writer.write(Data("\(term)\n".utf8))
      try writer.close()
      await process.waitForLine(containing: #""type":"results","seq":"#)
      await process.waitForLine(containing: #""term":"\#(term)","source""#)
    }
    process.send(SIGTERM)
    #expect(await process.waitForExit() == 143)
    let searched = process.lines.filter { $0.contains(#""type":"search""#) }
    #expect(searched.count == 2)
    #expect(process.lines.last?.contains(#""type":"summary""#) == true)
  }
}
