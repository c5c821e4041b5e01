// What a first-time user runs into, through the built binary: an input that is a directory, a
// replay of lines that are no recording, items of one title in the pretty view, `record --follow`,
// help as a subcommand, and the README's sample output, which must be what its command writes.
import Foundation
import TestSupport
import Testing

@testable import stream_search

@Suite struct FirstUseTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// A new, empty directory under the temporary one.
  static func makeDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-search-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test(arguments: [["--input"], ["--replay", "--input"], ["record", "--input"], ["--lines", "--input"]])
  func aDirectoryAsInputIsOneErrorLineNamingItWithStatus66AndNothingOnStandardOutput(
    options: [String]
  ) async throws {
    let directory = try Self.makeDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try await Subprocess.run(try toolBinary(), arguments: options + [directory.path])
    #expect(result.stderr == "Error: cannot open '\(directory.path)': Is a directory\n")
    // The run never started: no summary, nothing at all.
    #expect(result.stdout == "")
    #expect(result.status == 66 && !result.terminatedBySignal)
  }

  @Test func aReplayOfPlainLinesWritesItsInputErrorsThenFailsWithStatus65() async throws {
    let result = try await Subprocess.run(try toolBinary(), arguments: ["--replay"], input: Data("taylor\n".utf8))
    let events = try jsonObjects(result.stdout)
    #expect(events.map { $0["type"] as? String } == ["input_error", "summary"])
    #expect(events.first?["reason"] as? String == "at_ms is required in replay")
    #expect(
      result.stderr
        == "Error: the one input line could not be replayed (line 1: at_ms is required in replay); a recording's "
        + "lines are {\"at_ms\": …, \"term\": …}, as 'stream-search record' writes them\n")
    #expect(result.status == 65 && !result.terminatedBySignal)
  }

  @Test func aLiveRunOfNothingButBadLinesFailsWithStatus65() async throws {
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--format", "jsonl"], input: Data("{\"term\": 5}\n{\"term\": \n".utf8))
    #expect(try jsonObjects(result.stdout).map { $0["type"] as? String } == ["input_error", "input_error", "summary"])
    #expect(result.stderr == "Error: none of the 2 input lines could be used (line 1: \"term\" must be a string)\n")
    #expect(result.status == 65)
  }

  @Test(arguments: ["", "{\"at_ms\": 0, \"term\": \"abba\"}\ntaylor\n"])
  func aReplayOfNoLineOrOfOneUsableLineAmongBadOnesSucceeds(recording: String) async throws {
    let result = try await Subprocess.run(try toolBinary(), arguments: ["--replay"], input: Data(recording.utf8))
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(try jsonObjects(result.stdout).last?["type"] as? String == "summary")
  }

  @Test func thePrettyViewTellsItemsOfOneTitleApartByArtistAndYear() async throws {
    let directory = try Self.makeDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let catalog = directory.appendingPathComponent("catalog.json")
    try Data(
      """
      [{"trackId": 1, "kind": "song", "trackName": "Paradise", "artistName": "Coldplay",
        "releaseDate": "2011-09-12T07:00:00Z", "popularity": 9},
       {"trackId": 2, "kind": "song", "trackName": "Paradise", "artistName": "George Ezra",
        "releaseDate": "2018", "popularity": 8},
       {"trackId": 3, "kind": "song", "trackName": "Paradise City", "artistName": "Guns N' Roses",
        "releaseDate": "1987-01", "popularity": 7}]
      """.utf8
    ).write(to: catalog)
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--catalog", catalog.path, "--format", "pretty", "--categories", "music"],
      input: Data("paradise\n".utf8))
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let items = lines.drop { !$0.hasPrefix("                      music: ") }.prefix(3)
    #expect(
      Array(items) == [
        "                      music: Paradise — Coldplay · 2011",
        "                             Paradise — George Ezra · 2018",
        "                             Paradise City — Guns N' Roses · 1987",
      ], "\(result.stdout)")
    #expect(result.status == 0)
  }

  @Test func recordWithFollowKeepsRecordingAfterEachWriterOfAFIFOCloses() async throws {
    let directory = try Self.makeDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("keys").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let process = try RunningProcess(try toolBinary(), arguments: ["record", "--input", fifo, "--follow"])
    for term in ["taylor", "radiohead"] {
      // Each writer opens, writes one line and closes, as `echo taylor > keys` would.
      let writer = try #require(await Self.openForWriting(fifo), "no reader opened the FIFO")
      writer.write(Data("\(term)\n".utf8))
      try writer.close()
      let recorded = await process.waitForLine(containing: #""term":"\#(term)""#, within: hangBound)
      #expect(recorded, "\(term) was not recorded: \(process.lines)")
      guard recorded else { break }
    }
    process.send(SIGINT)
    #expect(await process.waitForExit() == 130)
    let terms = try jsonObjects(process.lines.joined(separator: "\n")).map { $0["term"] as? String }
    #expect(terms == ["taylor", "radiohead"])
  }

  /// The FIFO at `path` opened for writing once a reader has it open, polled for at most
  /// ``hangBound``: a plain open would wait for ever for a reader that exited.
  static func openForWriting(_ path: String) async -> FileHandle? {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: hangBound)
    while clock.now < deadline {
      let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      if descriptor >= 0 {
        // Blocking again, so that a write waits for room as `echo` would.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
      }
      try? await clock.sleep(for: .milliseconds(10))
    }
    return nil
  }

  @Test(arguments: [
    (["help"], "help.txt"), (["help", "record"], "record-help.txt"), (["help", "worker"], "worker-help.txt"),
  ])
  func helpIsASubcommand(arguments: [String], golden: String) async throws {
    let result = try await Subprocess.run(try toolBinary(), arguments: arguments)
    #expect(result.stdout == (try Golden.text(golden)))
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  /// A sample output of the README: its first block in `language` (`jsonl`, `text`), and the
  /// command of the `sh` block just before it, `swift run ` and the tool's name taken off.
  static func readmeSample(_ language: String) throws -> (arguments: [String], lines: [String]) {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let blocks = readme.components(separatedBy: "```")
    let sampleIndex = try #require(
      blocks.firstIndex { $0.hasPrefix(language + "\n") }, "no \(language) block in README.md")
    let commandBlock = try #require(blocks[..<sampleIndex].last { $0.hasPrefix("sh\n") }, "no sh block before it")
    let command = try #require(commandBlock.split(separator: "\n").dropFirst().first).split(separator: " ")
      .map(String.init)
    let words = command.starts(with: ["swift", "run"]) ? Array(command.dropFirst(2)) : command
    #expect(words.first == "stream-search")
    let arguments = words.dropFirst().map { $0.hasPrefix("Examples/") ? root.appendingPathComponent($0).path : $0 }
    let lines = blocks[sampleIndex].split(separator: "\n").dropFirst().map(String.init)
    return (arguments, lines)
  }

  /// Whether `line` is `pattern` with each `…` standing for any text.
  static func matches(_ line: String, _ pattern: String) -> Bool {
    let parts = pattern.components(separatedBy: "…")
    guard parts.count > 1 else { return line == pattern }
    guard let first = parts.first, let last = parts.last, line.hasPrefix(first), line.count >= first.count + last.count
    else { return false }
    var rest = line.dropFirst(first.count)
    for part in parts.dropFirst().dropLast() {
      guard let found = rest.range(of: part) else { return false }
      rest = rest[found.upperBound...]
    }
    return rest.count >= last.count && rest.hasSuffix(last)
  }

  /// `language`'s sample of the README against what its command writes, with `extra` arguments
  /// (the format a terminal would pick).
  func checkReadmeSample(_ language: String, extra: [String] = []) async throws {
    let sample = try Self.readmeSample(language)
    let result = try await Subprocess.run(try toolBinary(), arguments: sample.arguments + extra)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == sample.lines.count, "\(result.stdout)")
    for (line, pattern) in zip(lines, sample.lines) {
      #expect(Self.matches(line, pattern), "README.md shows \(pattern)\nthe tool writes \(line)")
    }
  }

  @Test func theReadmesJSONLinesSampleIsWhatTheCommandBesideItWrites() async throws {
    try await checkReadmeSample("jsonl")
  }

  @Test func theReadmesFirstSampleIsWhatItsCommandShowsAtATerminal() async throws {
    // A terminal picks --format pretty; the test's pipe would pick jsonl.
    try await checkReadmeSample("text", extra: ["--format", "pretty"])
  }

  @Test func theWildcardOfTheReadmesSampleMatchesOnlyWhatItShould() {
    #expect(Self.matches(#"{"a":1,"b":[2,3]}"#, #"{"a":1,…}"#))
    #expect(Self.matches(#"{"a":1,"b":[2,3]}"#, #"{"a":…,"b":[…]}"#))
    #expect(!Self.matches(#"{"a":1,"b":[2,3]}"#, #"{"a":2,…}"#))
    #expect(!Self.matches(#"{"a":1}"#, #"{"a":1}…,"c":3}"#))
    #expect(!Self.matches(#"{"a":1}"#, #"{"a":…,"b":…}"#))
  }

  @Test func theReadmeNamesEveryExitStatus() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let statuses =
      try #require(readme.components(separatedBy: "Exit statuses:").dropFirst().first)
      .components(separatedBy: "\n\n").first ?? ""
    for status in ExitStatus.allCases {
      #expect(statuses.contains("`\(status.rawValue)`"), "README.md's exit statuses leave out \(status.rawValue)")
    }
  }
}
