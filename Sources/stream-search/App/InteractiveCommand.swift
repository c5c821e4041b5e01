// `stream-search` at a terminal: a search field a person types into while results appear, drawn
// on /dev/tty like fzf, fed by the same pipeline as line mode. Enter prints the selected item as
// one JSON line on standard output; Esc and Ctrl-C leave without printing.
import Foundation
import LineIO
import Pipeline
import Streams

/// Runs the interactive screen until the person picks a result or leaves; says how to exit.
///
/// Each change of the field's text is a keystroke of the pipeline's input, on the real clock, so
/// debounce, distinct, cancel-previous and the cache work as in line mode; the screen is drawn
/// from the pipeline's events. The terminal is restored on every way out: Enter, Esc, Ctrl-C,
/// SIGINT, SIGTERM, SIGHUP, a failure, and standard output's reader going away; and for a stop
/// (SIGTSTP or Ctrl-Z) until the process continues, when the screen comes back and is redrawn.
struct InteractiveCommand {
  let setup: RunSetup
  /// Errors once the screen is gone; verbose diagnostics when it has a log file.
  let log: Log
  let stop: StopRequest

  func run() async -> ExitStatus {
    let terminal: TerminalDevice
    do {
      terminal = try TerminalDevice.open()
    } catch {
      log.error(error.message)
      return .usage
    }
    var recording: OutputWriter?
    if let path = setup.options.recordPath {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        log.error("cannot write the recording '\(path)': \(String(cString: strerror(errno)))")
        return .ioError
      }
      // Stop-aware: a stalled FIFO as the recording must not hold off SIGINT, SIGTERM or SIGHUP.
      recording = OutputWriter(fileDescriptor: descriptor, stoppingOn: stop.wakeUp)
    }
    defer { if let recording { close(recording.fileDescriptor) } }
    guard let reader = KeyReader(terminal: terminal.fileDescriptor, watching: Self.watchedOutput()) else {
      log.error("cannot start reading the terminal: \(String(cString: strerror(errno)))")
      return .ioError
    }
    let ending = await session(on: terminal, reader: reader, recording: recording)
    return finish(ending)
  }

  /// Shows the screen until the session ends, then restores the terminal.
  private func session(on terminal: TerminalDevice, reader: KeyReader, recording: OutputWriter?) async
    -> InteractiveEnding
  {
    let (inputs, keystrokes) = AsyncStream.makeStream(of: InputRecord.self)
    let (endings, ended) = AsyncStream.makeStream(of: InteractiveEnding.self)
    let clock = ContinuousClock()
    terminal.enterFullScreen()
    defer { terminal.restore() }
    let controller = InteractiveController(
      terminal: terminal, keystrokes: keystrokes, endings: ended, recording: recording,
      rateLimit: setup.options.pipeline.rateLimit, clock: clock)
    var configuration = setup.configuration(log: log)
    if setup.options.logPath == nil { configuration.log = nil }
    configuration.observers.append(
      ClosureObserver { observation in
        if case .requestSent = observation { controller.noteRequest() }
      })
    let pipeline = SearchPipeline(
      configuration: configuration, source: setup.source(clock: clock), clock: clock, sink: controller.show)
    let run = Task(inheritingExecutor: { await pipeline.run(inputs) })
    let signals = TerminalSignals { signal in
      switch signal {
      case .resized: controller.resize()
      case .hangUp: controller.end(.hungUp)
      case .suspend: terminal.suspend()
      case .continued: controller.resume()
      }
    }
    stop.whenRequested { [stop] in
      if let signal = stop.signal { controller.end(.signal(signal)) }
    }
    if let signal = stop.signal { controller.end(.signal(signal)) }
    controller.redraw()
    reader.start(controller.handle)
    var ending = InteractiveEnding.hungUp
    for await first in endings {
      ending = first
      break
    }
    reader.stop()
    signals.cancel()
    keystrokes.finish()
    run.cancel()
    _ = await run.value
    return ending
  }

  /// What the process does once the screen is gone.
  private func finish(_ ending: InteractiveEnding) -> ExitStatus {
    switch ending {
    case .accepted(let item):
      do throws(OutputError) {
        // Stop-aware, so a full pipe on stdout cannot hold off a later SIGINT or SIGTERM.
        let output = OutputWriter(fileDescriptor: STDOUT_FILENO, stoppingOn: stop.wakeUp)
        try output.write(JSONLinesEncoder().encode(item))
        return .success
      } catch .closed {
        return .success
      } catch .stopped {
        return stop.signal?.exitStatus ?? .interrupted
      } catch {
        log.error("Cannot write to standard output: \(error)")
        return .ioError
      }
    case .cancelled, .signal(.interrupt):
      return .interrupted
    case .signal(.terminate):
      return .terminated
    case .hungUp:
      return .hungUp
    case .outputClosed:
      return .success
    case .recordingFailed(let reason):
      log.error("cannot write the recording: \(reason)")
      return .ioError
    }
  }

  /// Standard output when it is a pipe or socket, whose reader can go away while the screen is up.
  private static func watchedOutput() -> Int32? {
    var status = stat()
    guard fstat(STDOUT_FILENO, &status) == 0 else { return nil }
    let type = status.st_mode & S_IFMT
    return type == S_IFIFO || type == S_IFSOCK ? STDOUT_FILENO : nil
  }
}
