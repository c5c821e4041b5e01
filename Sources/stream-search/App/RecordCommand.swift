// `stream-search record`: stamps each live input line with the milliseconds since the start,
// read from the real clock, and writes it as a recording line that `--replay` reads back.
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
      reader = try options.inputPath.map { try LineReader.open(path: $0) } ?? LineReader(fileDescriptor: 0)
    } catch {
      log.error("\(error)")
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
