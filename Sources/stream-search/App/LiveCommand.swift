// Live input: lines are searched as they arrive, on the real clock; events are written as they
// happen. Ends at the end of the input, when the reader of the output goes away, or on a signal;
// fails when the input had lines and none could be used (UnusableInput.swift).
import LineIO
import Pipeline
import Streams
import Synchronization

/// Runs the pipeline on live input and says how the process should exit.
struct LiveCommand {
  let setup: RunSetup
  let output: EventOutput
  let log: Log
  let stop: StopRequest

  func run() async -> ExitStatus {
    let options = setup.options
    let reader: LineReader
    do {
      reader = try LineReader.forInput(
        path: options.inputPath, follow: options.follow, maxLineLength: options.maxLineBytes)
    } catch {
      log.error(error.message(inputPath: options.inputPath))
      return .noInput
    }
    let clock = ContinuousClock()
    let firstBad = FirstBadLine()
    let pipeline = SearchPipeline(
      configuration: setup.configuration(log: log), source: setup.source(clock: clock), clock: clock,
      sink: { event in
        firstBad.note(event)
        output.write(event)
      })
    let readFailure = ReadFailure()
    let inputs = LiveInputs(reader: reader, readFailure: readFailure)
    let run = Task(inheritingExecutor: { await pipeline.run(inputs) })
    output.onClosed { run.cancel() }
    stop.whenRequested { run.cancel() }
    if stop.signal != nil { run.cancel() }
    let summary = await run.value
    // Every event handed over is written (or the output closed) before the status is decided.
    output.finish()
    if let signal = stop.signal { return signal.exitStatus }
    if output.isClosed { return output.failure == nil ? .success : .ioError }
    if let failure = readFailure.error {
      log.error(failure.message(inputPath: options.inputPath))
      return .ioError
    }
    if let message = UnusableInput.message(summary: summary, firstBad: firstBad.value, replay: false) {
      log.error(message)
      return .dataError
    }
    return .success
  }
}

/// The error that ended reading, if one did.
final class ReadFailure: Sendable {
  private let stored = Mutex<LineInputError?>(nil)

  /// The error, once reading failed.
  var error: LineInputError? { stored.withLock { $0 } }

  func record(_ error: LineInputError) { stored.withLock { $0 = error } }
}

/// The reader's lines as pipeline input; a read failure ends the input and is kept for the exit
/// status rather than lost.
struct LiveInputs: AsyncSequence, Sendable {
  typealias Element = InputRecord

  let reader: LineReader
  let readFailure: ReadFailure

  func makeAsyncIterator() -> Iterator { Iterator(lines: reader.makeAsyncIterator(), readFailure: readFailure) }

  struct Iterator: AsyncIteratorProtocol {
    var lines: LineReader.AsyncIterator
    let readFailure: ReadFailure

    mutating func next() async -> InputRecord? {
      do {
        return try await lines.next().map(InputRecord.init)
      } catch {
        readFailure.record(error)
        return nil
      }
    }
  }
}
