// `stream-search record`: stamps each live input line with the milliseconds since the start,
// read from the real clock, and writes it as a recording line that `--replay` reads back. Reads a
// FIFO on past its writers with `--follow`, as a live run does.
import LineIO
import Pipeline
import Streams

/// Turns a live typed stream into a replayable recording.
struct RecordCommand {
  let options: RecordOptions
  let writer: OutputWriter
  let log: Log
  let stop: StopRequest

  func run() async -> ExitStatus {
    let reader: LineReader
    do {
      reader = try LineReader.forInput(path: options.inputPath, follow: options.follow)
    } catch {
      log.error(error.message(inputPath: options.inputPath))
      return .noInput
    }
    let clock = ContinuousClock()
    let start = clock.now
    let recording = Task(inheritingExecutor: {
      do {
        for try await line in reader {
          let instant = start.duration(to: clock.now).wholeMilliseconds
          switch InputRecord(line) {
          case .keystroke(var keystroke, _):
            keystroke.atMilliseconds = instant
            do throws(OutputError) {
              try writer.write(keystroke.recordingLine)
            } catch .closed {
              return ExitStatus.success
            } catch .stopped {
              // A signal came while the output was full; its status is returned below.
              return ExitStatus.success
            } catch {
              log.error("cannot write the recording: \(error)")
              return ExitStatus.ioError
            }
          case .invalid(let number, let reason):
            log.warning("line \(number) skipped: \(reason)")
          }
        }
        return ExitStatus.success
      } catch let error as LineInputError {
        log.error(error.message(inputPath: options.inputPath))
        return ExitStatus.ioError
      } catch {
        log.error("\(error)")
        return ExitStatus.ioError
      }
    })
    stop.whenRequested { recording.cancel() }
    let status = await recording.value
    return stop.signal?.exitStatus ?? status
  }
}
