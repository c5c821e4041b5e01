// The interactive screen through a real pseudo-terminal: the built binary on a pty, key presses
// typed into it, the screen it draws read back and replayed on a small emulator, its standard
// output a pipe apart from the terminal. Answers come from a small catalog file of our own, so the
// checks are exact. Every wait is bounded in real time, generously: other builds share the CPU.
import Foundation
import Pipeline
import TestSupport
import Testing

@testable import stream_search

@Suite struct InteractiveTerminalTests {
  /// The catalog the screen answers from: four songs, a movie, a podcast.
  static let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/interactive-catalog.json").path

  private static let down: [UInt8] = [0x1B, 0x5B, 0x42]

  /// The binary on a fresh pty of `rows` × `columns`, answering from ``catalog``.
  private func start(
    _ arguments: [String] = [], environment: [String: String] = [:], rows: Int = 24, columns: Int = 80,
    terminal: Bool = true
  ) throws -> TerminalProcess {
    var variables = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]
    variables.merge(environment) { $1 }
    return try TerminalProcess(
      try toolBinary(), arguments: ["--catalog", Self.catalog] + arguments, environment: variables, rows: rows,
      columns: columns, terminal: terminal)
  }

  /// Waits until the screen satisfies `condition`, recording the screen if it never does.
  @discardableResult
  private func waitForScreen(
    _ process: TerminalProcess, _ what: String, rows: Int = 24, columns: Int = 80,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: @escaping @Sendable (VirtualScreen) -> Bool
  ) async -> Bool {
    let seen = await process.wait { condition(VirtualScreen($0.terminal, rows: rows, columns: columns)) }
    if seen == nil {
      let screen = VirtualScreen(process.snapshot.terminal, rows: rows, columns: columns).text
      Issue.record("The screen never showed \(what) within 20 s; it shows:\n\(screen)", sourceLocation: sourceLocation)
    }
    return seen != nil
  }

  /// Types "taylor" in two bursts, waiting for each burst's answer, and returns once the
  /// screen shows the answer for "taylor".
  private func typeTaylor(_ process: TerminalProcess) async {
    await waitForScreen(process, "the empty field") { $0.line(0) == ">" && $0.line(1).contains("Type to search") }
    process.type("tay")
    await waitForScreen(process, "the answer for \"tay\"") { $0.line(1).hasPrefix("  \"tay\": ") }
    process.type("lor")
    await waitForScreen(process, "the answer for \"taylor\"") { $0.line(1).hasPrefix("  \"taylor\": ") }
  }

  /// The terminal's modes are those it had before the tool started, and the screen is back.
  private func expectRestored(_ process: TerminalProcess, sourceLocation: SourceLocation = #_sourceLocation) {
    let before = process.initialModes
    let after = process.modes
    #expect(after.c_lflag == before.c_lflag, "local modes (echo, canonical, signals)", sourceLocation: sourceLocation)
    #expect(after.c_iflag == before.c_iflag, "input modes", sourceLocation: sourceLocation)
    #expect(after.c_oflag == before.c_oflag, "output modes", sourceLocation: sourceLocation)
    let screen = VirtualScreen(process.snapshot.terminal)
    #expect(!screen.isAlternateScreen, "the alternate screen is left", sourceLocation: sourceLocation)
    #expect(screen.isCursorVisible, "the cursor is shown", sourceLocation: sourceLocation)
  }

  @Test func typingShowsTheFieldResultsAndStatusAndEnterPrintsTheSelectionAsJSON() async throws {
    let process = try start()
    defer { process.close() }
    await typeTaylor(process)
    let screen = VirtualScreen(process.snapshot.terminal)
    #expect(screen.line(0) == "> taylor")
    #expect(screen.cursor == (row: 0, column: 8))
    #expect(screen.line(1).contains("results from catalog in"))
    #expect(screen.line(1).contains("requests"))
    #expect(screen.line(2) == "music · 2")
    #expect(screen.line(3) == "> Shake It Off — Taylor Swift · 2014")
    #expect(screen.line(4) == "  Love Story — Taylor Swift · 2008")
    #expect(screen.line(5) == "movies · 1")
    #expect(screen.line(6) == "  Taylor Made — Ann Lee · 2011")
    process.type(Self.down)
    await waitForScreen(process, "the second row selected") { $0.line(4) == "> Love Story — Taylor Swift · 2008" }
    process.type("\r")
    let exit = await process.waitForExit()
    #expect(exit == ChildExit(status: 0, signaled: false))
    let printed = String(decoding: process.snapshot.standardOutput, as: UTF8.self)
    #expect(printed.hasSuffix("\n") && printed.filter { $0 == "\n" }.count == 1)
    let object = try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any]
    #expect(object?["id"] as? Int == 1002)
    #expect(object?["title"] as? String == "Love Story")
    #expect(object?["artist"] as? String == "Taylor Swift")
    expectRestored(process)
  }

  @Test func controlCExits130PrintingNothing() async throws {
    let process = try start()
    defer { process.close() }
    await typeTaylor(process)
    process.type([0x03])
    #expect(await process.waitForExit() == ChildExit(status: 130, signaled: false))
    #expect(process.snapshot.standardOutput.isEmpty)
    expectRestored(process)
  }

  @Test func escapeExits130PrintingNothing() async throws {
    let process = try start()
    defer { process.close() }
    await waitForScreen(process, "the empty field") { $0.line(0) == ">" }
    process.type("tay")
    await waitForScreen(process, "the field") { $0.line(0) == "> tay" }
    process.type([0x1B])
    #expect(await process.waitForExit() == ChildExit(status: 130, signaled: false))
    #expect(process.snapshot.standardOutput.isEmpty)
    expectRestored(process)
  }

  @Test(arguments: [(SIGTERM, stream_search.ExitStatus.terminated), (SIGINT, .interrupted), (SIGHUP, .hungUp)])
  func signalRestoresTheTerminalAndExitsWithItsStatus(signal: Int32, status: stream_search.ExitStatus) async throws {
    let process = try start()
    defer { process.close() }
    await waitForScreen(process, "the empty field") { $0.line(0) == ">" && $0.isAlternateScreen }
    process.send(signal)
    #expect(await process.waitForExit() == ChildExit(status: status.rawValue, signaled: false))
    #expect(process.snapshot.standardOutput.isEmpty)
    expectRestored(process)
  }

  @Test func standardOutputsReaderGoingAwayEndsTheScreen() async throws {
    let process = try start()
    defer { process.close() }
    await waitForScreen(process, "the empty field") { $0.line(0) == ">" && $0.isAlternateScreen }
    process.closeStandardOutput()
    #expect(await process.waitForExit() == ChildExit(status: 0, signaled: false))
    expectRestored(process)
  }

  @Test func wideAndAccentedTextPlacesTheCursorByColumns() async throws {
    let process = try start()
    defer { process.close() }
    await waitForScreen(process, "the empty field") { $0.line(0) == ">" }
    process.type("東京")
    await waitForScreen(process, "the Japanese field") { $0.line(0) == "> 東京" && $0.cursor == (0, 6) }
    process.type([0x15])  // Ctrl-U
    process.type("cafe\u{301}")
    await waitForScreen(process, "the accented field") { $0.line(0) == "> café" && $0.cursor == (0, 6) }
    process.type([0x1B, 0x5B, 0x44])  // Left
    await waitForScreen(process, "the cursor one character back") { $0.cursor == (0, 5) }
    process.type([0x03])
    _ = await process.waitForExit()
  }

  @Test func resizeRedrawsAtTheNewSize() async throws {
    let process = try start()
    defer { process.close() }
    await typeTaylor(process)
    let offset = process.snapshot.terminal.count
    process.resize(rows: 6, columns: 30)
    let redrawn = await process.wait {
      let screen = VirtualScreen(Array($0.terminal.dropFirst(offset)), rows: 6, columns: 30)
      // Rows are cut one column short of the width, 29 columns here.
      return screen.line(0) == "> taylor" && screen.line(1) == "  \"taylor\": 4 results from ca"
        && screen.line(3) == "> Shake It Off — Taylor Swift" && screen.line(5) == "movies · 1"
    }
    let shown = VirtualScreen(Array(process.snapshot.terminal.dropFirst(offset)), rows: 6, columns: 30)
    #expect(redrawn != nil, "\(shown.text)")
    process.type([0x03])
    _ = await process.waitForExit()
  }

  @Test func recordingMadeThroughTheTerminalReplaysToTheSameSearches() async throws {
    let recording = FileManager.default.temporaryDirectory.appendingPathComponent("interactive-\(UUID()).jsonl")
    defer { try? FileManager.default.removeItem(at: recording) }
    let process = try start(["--record", recording.path])
    defer { process.close() }
    await typeTaylor(process)
    process.type([0x03])
    #expect(await process.waitForExit() == ChildExit(status: 130, signaled: false))
    let replay = try await Subprocess.run(
      try toolBinary(), arguments: ["--replay", "--input", recording.path, "--catalog", Self.catalog])
    #expect(replay.status == 0)
    let searches = replay.stdout.split(separator: "\n").compactMap { line -> String? in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["type"] as? String == "search"
      else { return nil }
      return object["term"] as? String
    }
    #expect(searches == ["tay", "taylor"])
  }

  @Test func aPastedLongTermIsCutToTheLimitOfEveryInputAndItsRecordingReplaysTheSameSearch() async throws {
    let recording = FileManager.default.temporaryDirectory.appendingPathComponent("interactive-\(UUID()).jsonl")
    defer { try? FileManager.default.removeItem(at: recording) }
    let process = try start(["--record", recording.path])
    defer { process.close() }
    await waitForScreen(process, "the empty field") { $0.line(0) == ">" && $0.isAlternateScreen }
    // 5,000 characters of three bytes each: 341 fill 1,023 of the 1,024 bytes a term may hold.
    process.type(String(repeating: "日本", count: 2_500))
    let full = "  the field is full (1024 bytes) · \"日本日本"
    await waitForScreen(process, "the full field's answer") { $0.line(1).hasPrefix(full) }
    process.type([0x03])
    #expect(await process.waitForExit() == ChildExit(status: 130, signaled: false))
    let replay = try await Subprocess.run(
      try toolBinary(), arguments: ["--replay", "--input", recording.path, "--catalog", Self.catalog])
    #expect(replay.status == 0)
    let events = replay.stdout.split(separator: "\n").compactMap { line in
      try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }
    #expect(events.filter { $0["type"] as? String == "input_error" }.isEmpty, "\(replay.stdout.prefix(600))")
    let searched = events.filter { $0["type"] as? String == "search" }.compactMap { $0["term"] as? String }
    #expect(searched.last == String(String(repeating: "日本", count: 171).prefix(341)))
    #expect(searched.allSatisfy { $0.utf8.count <= 1_024 })
  }

  /// Raw mode: no echo, no line editing, no signal keys.
  private func isRaw(_ modes: termios) -> Bool {
    modes.c_lflag & tcflag_t(ECHO | ICANON | ISIG) == 0
  }

  /// A shell with job control, for the test of stopping the screen.
  static let bash = RequiredTool.executable("bash", installedBy: "bash")

  /// The tool as a job of a shell with job control, as people run it: stopped by SIGTSTP from
  /// outside, then by Ctrl-Z, and brought back each time with `fg`.
  @Test(.enabled(if: bash.isAvailableOrCI, Comment(rawValue: bash.skipNote)))
  func aStopHandsTheTerminalBackAndFgBringsTheScreenBackRawAndRedrawn() async throws {
    let shell = try Self.bash.path()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("suspend-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // The job's script says its process id, then becomes the tool, keeping it.
    let pidFile = directory.appendingPathComponent("pid")
    let script = directory.appendingPathComponent("job")
    try """
    #!/bin/sh
    echo $$ > '\(pidFile.path)'
    exec '\(try toolBinary().path)' --catalog '\(Self.catalog)'

    """.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let process = try TerminalProcess(
      URL(fileURLWithPath: shell), arguments: ["--norc", "--noprofile", "-i"],
      environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PS1": "$ ", "PATH": "/usr/bin:/bin"])
    defer { process.close() }
    func stops() -> Int {
      String(decoding: process.snapshot.terminal, as: UTF8.self).components(separatedBy: "Stopped").count - 1
    }

    #expect(await process.wait { String(decoding: $0.terminal, as: UTF8.self).contains("$ ") } != nil)
    process.type(script.path + "\r")
    await waitForScreen(process, "the empty field") { $0.isAlternateScreen && $0.line(0) == ">" }
    process.type("tay")
    await waitForScreen(process, "the answer for \"tay\"") { $0.line(1).hasPrefix("  \"tay\": ") }
    let pid = try #require(
      pid_t(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))

    kill(pid, SIGTSTP)
    let handedBack = await process.wait {
      let screen = VirtualScreen($0.terminal)
      return !screen.isAlternateScreen && screen.isCursorVisible
        && String(decoding: $0.terminal, as: UTF8.self).contains("Stopped")
    }
    #expect(handedBack != nil, "the stop leaves the alternate screen and shows the cursor")
    process.type("fg\r")
    await waitForScreen(process, "the screen redrawn after fg") {
      $0.isAlternateScreen && $0.line(0) == "> tay" && $0.line(1).hasPrefix("  \"tay\": ")
    }
    #expect(isRaw(process.modes), "raw mode again after fg")
    // Keys are read one by one again: no line editing holds them until Enter.
    process.type("lor")
    await waitForScreen(process, "the answer for \"taylor\"") { $0.line(1).hasPrefix("  \"taylor\": ") }

    let stopsBefore = stops()
    process.type([0x1A])  // Ctrl-Z
    let suspendedByKey = await process.wait {
      !VirtualScreen($0.terminal).isAlternateScreen
        && String(decoding: $0.terminal, as: UTF8.self).components(separatedBy: "Stopped").count - 1 > stopsBefore
    }
    #expect(suspendedByKey != nil, "Ctrl-Z stops the job with the terminal handed back")
    process.type("fg\r")
    await waitForScreen(process, "the screen redrawn after the second fg") {
      $0.isAlternateScreen && $0.line(0) == "> taylor" && $0.line(3) == "> Shake It Off — Taylor Swift · 2014"
    }
    #expect(isRaw(process.modes), "raw mode again after the second fg")
    process.type("\r")
    let printed = await process.wait { String(decoding: $0.standardOutput, as: UTF8.self).contains("Shake It Off") }
    #expect(printed != nil, "Enter still prints the selection")
    process.type("exit\r")
    #expect(await process.waitForExit() == ChildExit(status: 0, signaled: false))
    #expect(!VirtualScreen(process.snapshot.terminal).isAlternateScreen)
  }

  @Test func aRecordingThatCannotBeWrittenEndsTheScreenWithStatus74() async throws {
    let process = try start(["--record", "/dev/full"])
    defer { process.close() }
    await waitForScreen(process, "the empty field") { $0.line(0) == ">" && $0.isAlternateScreen }
    process.type("t")
    #expect(await process.waitForExit() == ChildExit(status: 74, signaled: false))
    #expect(process.snapshot.standardOutput.isEmpty)
    expectRestored(process)
    #expect(String(decoding: process.snapshot.terminal, as: UTF8.self).contains("cannot write the recording"))
  }

  @Test func withoutATerminalTheInteractiveModeIsAUsageError() async throws {
    let process = try start(["--interactive"], terminal: false)
    defer { process.close() }
    #expect(await process.waitForExit() == ChildExit(status: stream_search.ExitStatus.usage.rawValue, signaled: false))
    let message = String(decoding: process.snapshot.standardOutput, as: UTF8.self)
    #expect(message.hasPrefix("Error: the interactive mode needs a terminal"))
    #expect(message.filter { $0 == "\n" }.count == 1)
  }

  @Test func dumbTerminalIsAUsageError() async throws {
    let process = try start(environment: ["TERM": "dumb"])
    defer { process.close() }
    #expect(await process.waitForExit() == ChildExit(status: stream_search.ExitStatus.usage.rawValue, signaled: false))
    #expect(String(decoding: process.snapshot.terminal, as: UTF8.self).contains("TERM is 'dumb'"))
    #expect(process.modes.c_lflag == process.initialModes.c_lflag)
  }

  @Test func linesKeepsLineModeOnATerminal() async throws {
    let process = try start(["--lines", "--format", "jsonl"])
    defer { process.close() }
    process.type("taylor\n")
    let answered = await process.wait {
      String(decoding: $0.standardOutput, as: UTF8.self).contains("\"type\":\"results\"")
    }
    #expect(answered != nil)
    process.type([0x04])  // Ctrl-D: end of input in canonical mode
    #expect(await process.waitForExit() == ChildExit(status: 0, signaled: false))
  }

  @Test func answerForASupersededTermNeverReachesTheScreen() async throws {
    // Each answer takes 4 s, so "lor" is typed long before the answer for "tay" could arrive,
    // however loaded the machine is.
    let process = try start(["--latency", "4s"])
    defer { process.close() }
    await waitForScreen(process, "the empty field") { $0.line(0) == ">" }
    process.type("tay")
    // "lor" is typed by the thread that sees the search start, so a loaded test pool cannot let
    // the 4 s pass first.
    let searched = await process.wait(thenType: Array("lor".utf8)) {
      VirtualScreen($0.terminal, rows: 24, columns: 80).line(1).hasPrefix("  searching \"tay\"")
    }
    #expect(searched != nil, "the search for \"tay\" never started")
    await waitForScreen(process, "the answer for \"taylor\"") { $0.line(1).hasPrefix("  \"taylor\": ") }
    process.type([0x03])
    _ = await process.waitForExit()
    // "tay" was searched, then superseded while its answer was on its way: no frame showed it.
    #expect(!String(decoding: process.snapshot.terminal, as: UTF8.self).contains("\"tay\": "))
  }

  @Test func statusCountsRequestsAndTheRateBudgetLeft() async throws {
    let process = try start(["--rate-limit", "10/min"], columns: 120)
    defer { process.close() }
    await waitForScreen(process, "the empty field", columns: 120) { $0.line(0) == ">" }
    process.type("tay")
    await waitForScreen(process, "the answer for \"tay\"", columns: 120) { $0.line(1).hasPrefix("  \"tay\": ") }
    process.type("lor")
    // "tay" and "taylor" each asked the three categories once: 6 of the 10 permits are in use.
    await waitForScreen(process, "six requests and the budget left", columns: 120) {
      $0.line(1).hasPrefix("  \"taylor\": ") && $0.line(1).hasSuffix(" ms · 6 requests · 4 left in the rate budget")
    }
    process.type([0x03])
    _ = await process.waitForExit()
  }

  @Test func verboseDiagnosticsGoToTheLogFileNotTheScreen() async throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("interactive-\(UUID()).log")
    defer { try? FileManager.default.removeItem(at: log) }
    let process = try start(["--verbose", "--log", log.path])
    defer { process.close() }
    await typeTaylor(process)
    process.type([0x03])
    #expect(await process.waitForExit() == ChildExit(status: 130, signaled: false))
    let written = try String(contentsOf: log, encoding: .utf8)
    #expect(written.contains("[catalog] searching \"taylor\" (music)"))
    #expect(!String(decoding: process.snapshot.terminal, as: UTF8.self).contains("[catalog]"))
  }

  @Test func controlLRedrawsTheWholeScreen() async throws {
    let process = try start()
    defer { process.close() }
    await typeTaylor(process)
    let offset = process.snapshot.terminal.count
    process.type([0x0C])
    let redrawn = await process.wait {
      let after = VirtualScreen(Array($0.terminal.dropFirst(offset)))
      return after.line(0) == "> taylor" && after.line(2) == "music · 2"
    }
    #expect(redrawn != nil)
    process.type([0x03])
    _ = await process.waitForExit()
  }
}
