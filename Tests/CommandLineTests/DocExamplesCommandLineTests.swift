// swift-format-ignore-file
// The examples below are copies of the docs, word for word, so the formatter must not reflow them.
// The code examples in the executable's doc comments, copied word for word and compiled. They
// are not run: each ends the process (exit) or waits for a signal sent to it, which would end
// or disturb the test process. `everyToolDocExampleIsCopiedHere` fails when an example changes
// without its copy here.
import Foundation
import LineIO
import Streams
import TestSupport
import Testing

@testable import stream_search

@Suite struct DocExamplesCommandLineTests {
  @Test func everyToolDocExampleIsCopiedHere() async throws {
    let (checked, missing) = try await DocExamples.uncopied(in: ["Sources/stream-search"], copiesIn: "Tests/CommandLineTests")
    #expect(missing == [], "examples with no copy in Tests/CommandLineTests")
    #expect(checked >= 2)
  }

  /// OutputWriter's example.
  func writeOneLine(_ line: String) {
    ignoreSIGPIPE()
    do throws(OutputError) {
      try OutputWriter.standardOutput.write(line + "\n")
    } catch .closed {
      exit(ExitStatus.success.rawValue)   // the reader went away: not a failure
    } catch {
      exit(ExitStatus.ioError.rawValue)
    }
  }

  /// SignalObserver's example, around a stand-in for the tool's run.
  func endOnTheFirstSignal(run: @escaping @Sendable () async -> Void) async {
    let observer = SignalObserver()
    let pipeline = Task(inheritingExecutor: { await run() })
    var iterator = observer.signals.makeAsyncIterator()
    if let signal = await iterator.next() {
      pipeline.cancel()   // the pipeline writes its shutdown events and summary
      await pipeline.value
      exit(signal.exitStatus.rawValue)
    }
  }
}
