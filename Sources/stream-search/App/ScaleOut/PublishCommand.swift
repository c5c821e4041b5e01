// `stream-search publish`: keystroke lines in, read exactly as a local run reads them, appended to
// their shards' streams on Redis. A bad line is an `input_error` event on standard output, as in a
// local run, and reading goes on.
import Foundation
import Pipeline
import ScaleOut
import Streams
import Synchronization

/// Reads keystrokes and publishes them; says how the process should exit.
struct PublishCommand {
  let options: PublishOptions
  let writer: OutputWriter
  let log: Log
  let stop: StopRequest

  /// How long a stopped `publish` goes on sending what it already read.
  static let drainLimit = Duration.seconds(2)

  func run() async -> ExitStatus {
    let reader: LineReader
    do {
      reader = try LineReader.forInput(
        path: options.inputPath, follow: options.follow, maxLineLength: options.maxLineBytes)
    } catch {
      log.error("\(error)")
      return .noInput
    }
    let notices = RedisNotices(endpoint: options.redis.endpoint, log: log)
    let refusals = RefusalLog(log: log)
    let publisher: KeystrokePublisher
    do {
      publisher = try KeystrokePublisher.connect(
        endpoint: options.redis.endpoint, keys: options.redis.keys, requestedShards: options.redis.shards,
        notice: notices.receive, refused: refusals.record)
    } catch let error as ScaleOutError {
      log.error(error.description)
      return error.exitStatus
    } catch {
      log.error("\(error)")
      return .unavailable
    }
    let output = InputErrorOutput(writer: writer)
    let reading = Task(inheritingExecutor: { () -> LineInputError? in
      do {
        for try await line in reader {
          switch InputRecord(line) {
          case .keystroke(let keystroke, _):
            await publisher.publish(keystroke)
          case .invalid(let number, let reason):
            output.write(line: number, reason: reason)
          }
        }
        return nil
      } catch let error as LineInputError {
        return error
      } catch {
        return nil
      }
    })
    stop.whenRequested { reading.cancel() }
    if stop.signal != nil { reading.cancel() }
    let readFailure = await reading.value
    // Stopped by a signal: what was read is still sent, for a moment.
    await publisher.finish(within: stop.signal == nil ? nil : Self.drainLimit)
    publisher.stop()
    if let signal = stop.signal { return signal.exitStatus }
    if let readFailure {
      log.error("\(readFailure)")
      return .ioError
    }
    if refusals.count > 0 { return .ioError }
    return .success
  }
}

/// `input_error` events for bad lines, numbered as a local run numbers its events.
final class InputErrorOutput: Sendable {
  private let writer: OutputWriter
  private let state = Mutex((seq: 0, closed: false))
  private let start = ContinuousClock.now

  init(writer: OutputWriter) {
    self.writer = writer
  }

  func write(line: Int, reason: String) {
    state.withLock { state in
      guard !state.closed else { return }
      state.seq += 1
      let event = SearchEvent(
        seq: state.seq, atMilliseconds: start.duration(to: .now).wholeMilliseconds,
        kind: .inputError(line: line, reason: reason))
      var bytes: [UInt8] = []
      JSONLinesEncoder().encode(event, into: &bytes)
      do throws(OutputError) {
        try writer.write(bytes)
      } catch {
        state.closed = true
      }
    }
  }
}

/// Redis refusing keystrokes (a key of another type under the prefix, say): each distinct
/// message once on standard error, and the run ends with a failure status.
final class RefusalLog: Sendable {
  private let log: Log
  private let seen = Mutex(Set<String>())

  init(log: Log) {
    self.log = log
  }

  var count: Int { seen.withLock { $0.count } }

  func record(_ message: String) {
    let first = seen.withLock { $0.insert(message).inserted }
    if first { log.error("Redis refused a keystroke: \(message)") }
  }
}
