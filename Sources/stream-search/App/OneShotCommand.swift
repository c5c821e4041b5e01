// The one-shot search for scripts: `stream-search TERM…` and `stream-search --each`. Each term is
// a keystroke that ends its own session, so it is searched at once and nothing cancels it; the
// answers are written in the terms' order, one `results` (or `error`) object each, as a pipe into
// jq expects, whatever order the source answers in.
import LineIO
import Pipeline
import Streams
import Synchronization

/// Runs the pipeline over terms given once each and says how the process should exit.
struct OneShotCommand {
  let setup: RunSetup
  let output: EventOutput
  let log: Log
  let stop: StopRequest

  func run(_ oneShot: CommandLineOptions.OneShot) async -> ExitStatus {
    let options = setup.options
    let clock = ContinuousClock()
    let firstBad = FirstBadLine()
    let order = AnswerOrder(output: output, statsLog: options.stats ? log : nil)
    let pipeline = SearchPipeline(
      configuration: setup.configuration(log: log), source: setup.source(clock: clock), clock: clock,
      sink: { event in
        firstBad.note(event)
        order.receive(event)
      })
    let readFailure = ReadFailure()
    let run: Task<RunSummary, Never>
    switch oneShot {
    case .terms(let terms):
      let (inputs, feed) = AsyncStream.makeStream(of: InputRecord.self)
      for (index, term) in terms.enumerated() {
        feed.yield(.keystroke(Keystroke(term: term, endsSession: true), line: index + 1))
      }
      feed.finish()
      run = Task(inheritingExecutor: { await pipeline.run(inputs) })
    case .eachLine:
      let reader: LineReader
      do {
        reader = try LineReader.forInput(
          path: options.inputPath, follow: options.follow, maxLineLength: options.maxLineBytes)
      } catch {
        log.error(error.message(inputPath: options.inputPath))
        return .noInput
      }
      let inputs = LiveInputs(reader: reader, readFailure: readFailure).map(Self.endingItsSession)
      run = Task(inheritingExecutor: { await pipeline.run(inputs) })
    }
    output.onClosed { run.cancel() }
    stop.whenRequested { run.cancel() }
    if stop.signal != nil { run.cancel() }
    let summary = await run.value
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

  /// The line's keystroke, made to end its session.
  @Sendable private static func endingItsSession(_ record: InputRecord) -> InputRecord {
    guard case .keystroke(var keystroke, let line) = record else { return record }
    keystroke.endsSession = true
    return .keystroke(keystroke, line: line)
  }
}

/// Writes each line's answer once every earlier line's is written: a search's `results` or
/// `error`, a bad line's `input_error`, a search cut short by a signal's `cancelled`. A line that
/// cleared the field has no answer and holds nothing up. The summary is not written: `--stats`
/// logs it to standard error.
///
/// The pipeline calls its sink one event at a time, so the events taken out here are written in
/// the order they were taken.
final class AnswerOrder: Sendable {
  private struct State {
    /// The next line whose answer is to be written.
    var next = 1
    /// Answers (nil: none is due) that came before an earlier line's.
    var waiting: [Int: SearchEvent?] = [:]

    /// Records `answer` for `line`; returns the answers now due, in line order.
    mutating func settle(line: Int, answer: SearchEvent?) -> [SearchEvent] {
      waiting[line] = .some(answer)
      var due: [SearchEvent] = []
      while let answer = waiting.removeValue(forKey: next) {
        if let answer { due.append(answer) }
        next += 1
      }
      return due
    }
  }

  private let output: EventOutput
  private let statsLog: Log?
  private let state = Mutex(State())

  init(output: EventOutput, statsLog: Log?) {
    self.output = output
    self.statsLog = statsLog
  }

  func receive(_ event: SearchEvent) {
    let line: Int
    let answer: SearchEvent?
    switch event.kind {
    case .results, .error, .cancelled:
      guard let number = event.inputLine else { return }
      (line, answer) = (number, event)
    case .inputError(let number, _):
      (line, answer) = (number, event)
    case .cleared:
      guard let number = event.inputLine else { return }
      (line, answer) = (number, nil)
    case .summary:
      statsLog?.stats(PrettyEventFormatter().format(event))
      return
    case .search, .partial, .waiting:
      return
    }
    for due in state.withLock({ $0.settle(line: line, answer: answer) }) { output.write(due) }
  }
}
