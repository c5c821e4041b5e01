// `--replay`: the recording is read and parsed on a reader thread, handed to this one in batches,
// and replayed in virtual time. The output is identical to the byte on every run. A recording of
// which no line could be replayed fails the run (UnusableInput.swift).
import LineIO
import Pipeline
import Streams
import Synchronization

/// Runs a replay to its end and says how the process should exit.
struct ReplayCommand {
  let setup: RunSetup
  let output: EventOutput
  let log: Log
  let stop: StopRequest

  private enum Interruption: Error {
    case outputClosed
    case signal(TerminationSignal)
  }

  func run() -> ExitStatus {
    let options = setup.options
    var records: InputRecordReader
    do {
      // Opened without blocking, even a FIFO with no writer yet: the reader thread waits for it,
      // and a stop request ends that wait.
      records = try LineReader.forInput(path: options.inputPath, follow: false, maxLineLength: options.maxLineBytes)
        .makeRecordReader()
    } catch {
      log.error(error.message(inputPath: options.inputPath))
      return .noInput
    }
    // A signal ends a wait for the next line (a stalled pipe, a FIFO's writer) and a wait for a
    // network source's answer at once.
    let replayStop = ReplayStop()
    let cancelInput: @Sendable () -> Void = records.cancel
    let stopWaiting: @Sendable () -> Void = {
      cancelInput()
      replayStop.request()
    }
    stop.whenRequested(stopWaiting)
    if stop.signal != nil { stopWaiting() }
    let driver = ReplayDriver(configuration: setup.configuration(log: log)) { [setup] clock in
      setup.source(clock: clock)
    }
    let firstBad = FirstBadLine()
    let sink: @Sendable (SearchEvent) -> Void = { event in
      firstBad.note(event)
      output.write(event)
    }
    var ending: (any Error)?
    var summary: RunSummary?
    do {
      summary = try driver.run(sink: sink, jobCount: nil, stop: replayStop) {
        // Checked between lines: a signal or a closed output is acted on at the next line, and a
        // wait for input ends when a signal arrives. A signal decides the status even when the
        // output was full when it came.
        if let signal = stop.signal { throw Interruption.signal(signal) }
        if output.isClosed { throw Interruption.outputClosed }
        // Events held back for a batch are written while this thread waits for input.
        guard let record = try records.next(beforeWaiting: output.flush) else {
          // Cancelled by a signal, or the end of the input.
          if let signal = stop.signal { throw Interruption.signal(signal) }
          return nil
        }
        return record
      }
    } catch {
      ending = error
    }
    // The summary and whatever else is queued are written before the status is decided; a full
    // output's wait ends with a stop request, whose signal then decides.
    output.finish()
    switch ending {
    case nil, Interruption.outputClosed?:
      if let signal = stop.signal { return signal.exitStatus }
      if output.failure != nil { return .ioError }
      if ending == nil, let summary,
        let message = UnusableInput.message(summary: summary, firstBad: firstBad.value, replay: true)
      {
        log.error(message)
        return .dataError
      }
      return .success
    case Interruption.signal(let signal)?:
      return signal.exitStatus
    case let error as LineInputError:
      log.error(error.message(inputPath: options.inputPath))
      return .ioError
    case let error?:
      log.error("replay failed: \(error)")
      return .ioError
    }
  }
}

/// A termination signal, once one has arrived; read by whoever checks between steps, and woken
/// on by whoever blocks in poll(2) (``wakeUp``).
final class StopRequest: Sendable {
  private let received = Mutex<TerminationSignal?>(nil)
  /// Whether `received` holds a signal, stored under its lock, for ``signal`` to answer "none"
  /// without the lock: a replay asks between every two lines.
  private let hasSignal = Atomic(false)
  private let onStop = Mutex<(@Sendable () -> Void)?>(nil)
  /// Signalled when a stop is requested; nil only if no pipe could be made (then blocking
  /// reads and writes are not interrupted, and checks between steps still are).
  let wakeUp: CancellationSignal? = try? CancellationSignal()

  /// The first signal received, if any.
  var signal: TerminationSignal? {
    guard hasSignal.load(ordering: .acquiring) else { return nil }
    return received.withLock { $0 }
  }

  /// Records `signal` (the first one wins) and runs the stop action once.
  func request(_ signal: TerminationSignal) {
    let first = received.withLock { received -> Bool in
      guard received == nil else { return false }
      received = signal
      hasSignal.store(true, ordering: .releasing)
      return true
    }
    guard first else { return }
    wakeUp?.signal()
    onStop.withLock { $0.take() }?()
  }

  /// Sets what to do when a signal arrives (e.g. cancel the live pipeline).
  func whenRequested(_ action: @escaping @Sendable () -> Void) {
    onStop.withLock { $0 = action }
  }
}
