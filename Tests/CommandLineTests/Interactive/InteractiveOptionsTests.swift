// When the interactive mode starts: by default when standard input is a terminal and nothing
// else is to be read, forced by --interactive, refused by --lines; and its options' checks.
import Testing

@testable import stream_search

@Suite struct InteractiveOptionsTests {
  private func options(_ arguments: [String], stdinIsTerminal: Bool) throws -> CommandLineOptions? {
    guard
      case .search(let options) = try CommandLineParser.parse(
        arguments, stdoutIsTerminal: false, stdinIsTerminal: stdinIsTerminal)
    else { return nil }
    return options
  }

  @Test func aTerminalOnStandardInputStartsTheInteractiveMode() throws {
    #expect(try options([], stdinIsTerminal: true)?.interactive == true)
    #expect(try options([], stdinIsTerminal: false)?.interactive == false)
  }

  @Test func inputReplayAndLinesKeepLineModeOnATerminal() throws {
    #expect(try options(["--input", "keys.txt"], stdinIsTerminal: true)?.interactive == false)
    #expect(try options(["--replay"], stdinIsTerminal: true)?.interactive == false)
    #expect(try options(["--lines"], stdinIsTerminal: true)?.interactive == false)
  }

  @Test func interactiveForcesItWithoutATerminalOnStandardInput() throws {
    #expect(try options(["--interactive"], stdinIsTerminal: false)?.interactive == true)
  }

  @Test func recordAndLogAreKept() throws {
    let parsed = try options(["--record", "s.jsonl", "--log", "run.log"], stdinIsTerminal: true)
    #expect(parsed?.recordPath == "s.jsonl")
    #expect(parsed?.logPath == "run.log")
  }

  @Test func logAlsoWorksInLineMode() throws {
    #expect(try options(["--log", "run.log"], stdinIsTerminal: false)?.logPath == "run.log")
  }

  @Test func recordInLineModeIsRefused() {
    #expect(throws: UsageError.self) { try options(["--lines", "--record", "s.jsonl"], stdinIsTerminal: true) }
  }
}
