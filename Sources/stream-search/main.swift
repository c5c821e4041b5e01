// The `stream-search` executable: parses the command line, answers help and version, reports
// usage errors (status 64), and otherwise runs the interactive screen, a replay, a live search or
// a recording, writing events to standard output and diagnostics to standard error.
import Foundation
import LineIO
import Pipeline
import Streams

// Before anything else can be handed descriptor 0, 1 or 2.
let standardDescriptors = StandardDescriptors.reserveClosed()
ignoreSIGPIPE()
// A file-size limit (`ulimit -f`) must fail the disk cache's write, not kill the run.
signal(SIGXFSZ, SIG_IGN)

let invocation: Invocation
do {
  invocation = try CommandLineParser.parse(
    Array(CommandLine.arguments.dropFirst()), stdoutIsTerminal: isatty(STDOUT_FILENO) != 0,
    stdinIsTerminal: isatty(STDIN_FILENO) != 0, notUTF8: RawArguments.positionsNotUTF8())
} catch {
  try? OutputWriter.standardError.write(error.text)
  exit(ExitStatus.usage.rawValue)
}

/// Watches SIGINT and SIGTERM for the whole run and turns the first into a stop request.
///
/// The request is made on the observer's dispatch queue, not in a task: when a write to a full
/// pipe holds the task threads, a task would never run, and the write waits for the request.
func observeSignals() -> StopRequest {
  let stop = StopRequest()
  let observer = SignalObserver(onArrival: { stop.request($0) })
  Task(inheritingExecutor: {
    // Keeps the observer watching for the whole run.
    for await _ in observer.signals {}
  })
  return stop
}

/// Ends the process at once, with one line and status 74, when standard output was closed at
/// start: whatever the command writes there would be lost.
func refuseClosedOutput(_ log: Log) {
  guard standardDescriptors.outputWasClosed else { return }
  log.error(StandardDescriptors.closedOutputMessage)
  exit(ExitStatus.ioError.rawValue)
}

/// What a command that reads keystrokes and writes lines to standard output starts from: the
/// closed descriptors refused (stdout always, stdin when it is the input), signals observed, and
/// a writer that a stop request wakes.
func startLineCommand(inputPath: String?) -> (log: Log, stop: StopRequest, writer: OutputWriter) {
  let log = Log(level: .normal)
  refuseClosedOutput(log)
  if inputPath == nil, standardDescriptors.inputWasClosed {
    log.error(StandardDescriptors.closedInputMessage)
    exit(ExitStatus.noInput.rawValue)
  }
  let stop = observeSignals()
  return (log, stop, OutputWriter(fileDescriptor: STDOUT_FILENO, stoppingOn: stop.wakeUp))
}

switch invocation {
case .help(let text), .version(let text):
  refuseClosedOutput(Log(level: .normal))
  do throws(OutputError) {
    try OutputWriter.standardOutput.write(text)
  } catch .failed {
    exit(ExitStatus.ioError.rawValue)
  } catch .closed {
    // The reader went away (e.g. `--help | head -1`): that is not a failure.
  }
  exit(ExitStatus.success.rawValue)
case .search(let options):
  let log: Log
  do {
    log = try Log(options: options, path: options.logPath)
  } catch {
    try? OutputWriter.standardError.write("Error: \(error.message)\n")
    exit(ExitStatus.ioError.rawValue)
  }
  refuseClosedOutput(log)
  // The interactive screen reads its keys from /dev/tty, not from descriptor 0; terms given as
  // arguments read nothing.
  if options.inputPath == nil, !options.interactive, options.readsInput, standardDescriptors.inputWasClosed {
    log.error(StandardDescriptors.closedInputMessage)
    exit(ExitStatus.noInput.rawValue)
  }
  let setup: RunSetup
  do {
    setup = try RunSetup(options: options, log: log)
  } catch {
    log.error(error.message)
    exit(ExitStatus.noInput.rawValue)
  }
  let stop = observeSignals()
  let writer = OutputWriter(fileDescriptor: STDOUT_FILENO, stoppingOn: stop.wakeUp)
  // A replay of the catalog makes its events as fast as it can: batched. A replay of a network
  // source waits for real answers between them, and each is written when it comes.
  let output = EventOutput(
    writer: writer, format: options.format, statsLog: options.stats && options.oneShot == nil ? log : nil,
    pace: options.replay && options.source == .catalog ? .batched : .prompt)
  let status: ExitStatus
  if let oneShot = options.oneShot {
    status = await OneShotCommand(setup: setup, output: output, log: log, stop: stop).run(oneShot)
  } else if options.interactive {
    status = await InteractiveCommand(setup: setup, log: log, stop: stop).run()
  } else if options.replay {
    status = ReplayCommand(setup: setup, output: output, log: log, stop: stop).run()
  } else {
    status = await LiveCommand(setup: setup, output: output, log: log, stop: stop).run()
  }
  if let errno = output.failure {
    log.error("Cannot write to standard output: \(String(cString: strerror(errno)))")
  }
  exit(status.rawValue)
case .publish(let options):
  let (log, stop, writer) = startLineCommand(inputPath: options.inputPath)
  exit(await PublishCommand(options: options, writer: writer, log: log, stop: stop).run().rawValue)
case .worker(let options):
  let log: Log
  do {
    log = try Log(options: options.search, path: options.search.logPath)
  } catch {
    try? OutputWriter.standardError.write("Error: \(error.message)\n")
    exit(ExitStatus.ioError.rawValue)
  }
  let stop = observeSignals()
  exit(await WorkerCommand(options: options, log: log, stop: stop).run().rawValue)
case .events(let options):
  let log = Log(level: .normal)
  refuseClosedOutput(log)
  let stop = observeSignals()
  let writer = OutputWriter(fileDescriptor: STDOUT_FILENO, stoppingOn: stop.wakeUp)
  exit(await EventsCommand(options: options, writer: writer, log: log, stop: stop).run().rawValue)
case .serve(let options):
  let log: Log
  do {
    log = try Log(options: options.search, path: options.search.logPath)
  } catch {
    try? OutputWriter.standardError.write("Error: \(error.message)\n")
    exit(ExitStatus.ioError.rawValue)
  }
  let stop = observeSignals()
  exit(await ServeCommand(options: options, log: log, stop: stop).run().rawValue)
case .record(let options):
  let (log, stop, writer) = startLineCommand(inputPath: options.inputPath)
  exit(await RecordCommand(options: options, writer: writer, log: log, stop: stop).run().rawValue)
}
