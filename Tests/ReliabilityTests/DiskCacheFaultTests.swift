// Bad cache files and bad disks through the built binary: a corrupt, truncated, foreign, newer or
// read-only file, a full disk and a directory that cannot be made each cost one stderr line; the
// run goes on from memory with the right answers, and the summary says the disk tier was off.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct DiskCacheFaultTests {
  /// Checks a run whose disk tier must be off: exit 0, one warning containing `reason`, every
  /// term answered by the server, and `disk: off` in the summary.
  private func expectDiskOff(
    _ result: SubprocessResult, terms: [String], reason: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let events = try checkedEvents(result, sourceLocation: sourceLocation)
    let lines = stderrLines(result)
    #expect(lines.count == 1, "expected one warning, got: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(lines.first?.hasPrefix("Warning: disk cache off: ") == true, sourceLocation: sourceLocation)
    #expect(lines.first?.contains(reason) == true, "\(lines)", sourceLocation: sourceLocation)
    #expect(titlesByTerm(events) == expectedTitles(terms), sourceLocation: sourceLocation)
    #expect(events.last?.disk == "off", sourceLocation: sourceLocation)
  }

  @Test func aFileThatIsNotADatabaseTurnsTheDiskTierOff() async throws {
    let directory = try freshDirectory()
    try Data("this is not SQLite, just text that happens to be here\n".utf8).write(
      to: URL(fileURLWithPath: cacheFile(directory)))
    try await withStandIn(echoAnswers) { server in
      let result = try await runWithDisk(server, directory, terms: ["abba"])
      try expectDiskOff(result, terms: ["abba"], reason: "not a database")
      #expect(server.requests.count == 1)
    }
  }

  @Test func aTruncatedFileNeverGivesAWrongAnswer() async throws {
    let directory = try freshDirectory()
    let terms = (0..<60).map { "truncated\($0)" }
    try await withStandIn(echoAnswers) { server in
      _ = try checkedEvents(try await runWithDisk(server, directory, terms: terms))
      // Fold the WAL into the file, then cut the file in half.
      try TestDatabase(cacheFile(directory)).rows("PRAGMA wal_checkpoint(TRUNCATE)")
      let size = try #require(try FileManager.default.attributesOfItem(atPath: cacheFile(directory))[.size] as? Int)
      #expect(size > 8_192)
      #expect(truncate(cacheFile(directory), off_t(size / 2)) == 0)
      let result = try await runWithDisk(server, directory, terms: terms)
      let events = try checkedEvents(result)
      #expect(titlesByTerm(events) == expectedTitles(terms))
      let lines = stderrLines(result)
      #expect(lines.count <= 1 && lines.allSatisfy { $0.hasPrefix("Warning: disk cache off: ") }, "\(lines)")
      #expect(events.last?.disk == (lines.isEmpty ? "on" : "off"))
    }
  }

  @Test func anotherProgramsDatabaseIsLeftAlone() async throws {
    let directory = try freshDirectory()
    let database = try TestDatabase(cacheFile(directory))
    try database.rows("CREATE TABLE notes (text TEXT)")
    try database.rows("INSERT INTO notes VALUES ('keep me')")
    try await withStandIn(echoAnswers) { server in
      let result = try await runWithDisk(server, directory, terms: ["abba"])
      try expectDiskOff(result, terms: ["abba"], reason: "SQLite file of another program")
    }
    #expect(try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'") == [["notes"]])
    #expect(try database.value("SELECT text FROM notes") == "keep me")
  }

  @Test func aFileFromANewerVersionIsNeitherReadNorRebuilt() async throws {
    let directory = try freshDirectory()
    let database = try TestDatabase(cacheFile(directory))
    try database.rows("PRAGMA application_id = \(0x5353_4348)")
    try database.rows("PRAGMA user_version = 99")
    try database.rows("CREATE TABLE future (x)")
    try await withStandIn(echoAnswers) { server in
      try expectDiskOff(try await runWithDisk(server, directory, terms: ["abba"]), terms: ["abba"], reason: "schema 99")
    }
    #expect(try database.value("PRAGMA user_version") == "99")
    #expect(try database.value("SELECT count(*) FROM sqlite_master WHERE name = 'future'") == "1")
  }

  /// Files at the cache path that are not the tool's to change.
  enum NotOurs: String, CaseIterable, CustomTestStringConvertible {
    case newerSchema, anotherProgram, anotherProgramInWALMode, notADatabase

    var testDescription: String { rawValue }

    /// Makes the file at `path`; the connection is closed before this returns.
    func make(at path: String) throws {
      if self == .notADatabase {
        try Data("col1,col2\nnot,sqlite\n".utf8).write(to: URL(fileURLWithPath: path))
        return
      }
      let database = try TestDatabase(path)
      switch self {
      case .newerSchema:
        try database.rows("PRAGMA application_id = \(0x5353_4348)")
        try database.rows("PRAGMA user_version = 99")
        try database.rows("CREATE TABLE future (x)")
      case .anotherProgram:
        try database.rows("CREATE TABLE notes (text TEXT)")
        try database.rows("INSERT INTO notes VALUES ('keep me')")
      case .anotherProgramInWALMode:
        try database.rows("PRAGMA journal_mode = WAL")
        try database.rows("CREATE TABLE notes (text TEXT)")
        try database.rows("INSERT INTO notes VALUES ('keep me')")
      case .notADatabase: break
      }
    }
  }

  /// Every file in `directory` with its bytes.
  private func snapshot(_ directory: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
      files[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
    }
    return files
  }

  @Test(arguments: NotOurs.allCases)
  func aFileThatIsNotOursIsLeftByteForByteAndNothingIsAddedBesideIt(_ file: NotOurs) async throws {
    let directory = try freshDirectory()
    try file.make(at: cacheFile(directory))
    let before = try snapshot(directory)
    #expect(before.keys.sorted() == ["cache.sqlite"], "the test's own connection left nothing beside the file")
    try await withStandIn(echoAnswers) { server in
      let result = try await runWithDisk(server, directory, terms: ["abba"])
      try expectDiskOff(result, terms: ["abba"], reason: "is not usable")
    }
    let after = try snapshot(directory)
    #expect(after.keys.sorted() == before.keys.sorted(), "no journal, -wal or -shm file appeared")
    #expect(after == before, "the file's bytes are as they were")
  }

  @Test func aDirectoryThatCannotBeCreatedTurnsTheDiskTierOff() async throws {
    let parent = try freshDirectory()
    try Data().write(to: URL(fileURLWithPath: parent + "/plain-file"))
    try await withStandIn(echoAnswers) { server in
      try expectDiskOff(
        try await runWithDisk(server, parent + "/plain-file/cache", terms: ["abba"]), terms: ["abba"],
        reason: "is not a directory")
    }
  }

  @Test(.enabled(if: ReadOnlyDirectory.isPossible)) func aReadOnlyFileTurnsTheDiskTierOff() async throws {
    try await withStandIn(echoAnswers) { server in
      try await ReadOnlyDirectory.with { directory, makeReadOnly in
        _ = try checkedEvents(try await runWithDisk(server, directory, terms: ["abba"]))
        try makeReadOnly()
        let result = try await runWithDisk(server, directory, terms: ["abba", "queen"])
        // "abba" was stored by the first run, but a file we cannot write is not used at all.
        try expectDiskOff(result, terms: ["abba", "queen"], reason: "read-only")
      }
    }
  }

  @Test func aFullDiskTurnsTheDiskTierOffAndEveryAnswerStillArrives() async throws {
    let directory = try freshDirectory()
    let terms = (0..<80).map { "full\($0)" }
    let big: LoopbackHTTPServer.Handler = { request in
      .json(answerBody(for: (request.value(of: "term") ?? "") + String(repeating: "x", count: 2_000)))
    }
    try await withStandIn(big) { server in
      // bash's `ulimit -f` is in KiB: the file (and its WAL) cannot grow past 96 KiB.
      let result = try await Subprocess.run(
        URL(fileURLWithPath: "/bin/bash"),
        arguments: ["-c", #"ulimit -f 96 && exec "$0" "$@""#, try toolBinary().path]
          + diskArguments(server, directory),
        input: sessionsInput(terms))
      let events = try checkedEvents(result)
      let lines = stderrLines(result)
      #expect(lines.count == 1 && lines.first?.hasPrefix("Warning: disk cache off: cannot write") == true, "\(lines)")
      #expect(events.filter { $0.type == "results" }.count == terms.count)
      #expect(events.last?.disk == "off")
    }
  }
}

/// A cache directory that a test can make read-only, even for root: a small tmpfs remounted
/// read-only when running as root (root ignores permission bits), else permission bits.
enum ReadOnlyDirectory {
  /// Whether this machine lets the test make one: always for non-root; for root, if mount works.
  static let isPossible: Bool = {
    guard getuid() == 0 else { return true }
    guard let probe = try? freshDirectory("probe") else { return false }
    defer { _ = run("/bin/umount", [probe]) }
    return run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe])
  }()

  /// Runs `body` with a directory and a function that makes it (and its files) read-only.
  static func with(_ body: (String, () throws -> Void) async throws -> Void) async throws {
    let directory = try freshDirectory()
    if getuid() == 0 {
      guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", directory]) else {
        throw TestDatabaseError(message: "mount failed")
      }
      defer { _ = run("/bin/umount", ["-l", directory]) }
      try await body(directory) {
        guard run("/bin/mount", ["-o", "remount,ro", directory]) else {
          throw TestDatabaseError(message: "remount failed")
        }
      }
    } else {
      try await body(directory) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
          chmod(directory + "/" + name, 0o444)
        }
        chmod(directory, 0o555)
      }
    }
  }

  /// Whether `path` ran and exited with status 0 within 60 s (mount and umount take moments).
  private static func run(_ path: String, _ arguments: [String]) -> Bool {
    guard let child = try? ChildProcess(path, arguments: arguments, standardError: .nullDevice) else { return false }
    guard let exit = child.waitForExit(atMost: .seconds(60)) else {
      child.signal(SIGKILL)
      return false
    }
    return exit == ChildExit(status: 0, signaled: false)
  }
}
