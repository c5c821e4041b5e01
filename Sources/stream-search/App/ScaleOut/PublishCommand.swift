// `stream-search publish`: keystroke lines in, read exactly as a local run reads them, appended to
// their shards' streams on Redis. A bad line is an `input_error` event on standard output, as in a
// local run, and reading goes on.
import Foundation
import LineIO
import Pipeline
import RESP
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
    let publisher: KeystrokePublisher
    do {
      publisher = try KeystrokePublisher.connect(
        endpoint: options.redis.endpoint, keys: options.redis.keys, requestedShards: options.redis.shards,
        stoppingOn: stop.wakeUp, notice: notices.receive)
    } catch let error as ScaleOutError {
      log.error(error.description)
      return error.exitStatus
    } catch is CancellationError {
      return stop.signal?.exitStatus ?? .interrupted
    } catch {
      log.error("\(error)")
      return .unavailable
    }
    let output = InputErrorOutput(writer: writer)
    let reading = Task(inheritingExecutor: { () -> LineInputError? in
      do {
        for try await line in reader {
          switch InputRecord(line) {
          case .keystroke(let keystroke, let number):
            // The publisher ended (Redis refused a keystroke): nothing more would be sent.
            guard await publisher.publish(keystroke, line: number) else { return nil }
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
    // Stopped by a signal: reading ends, and what was read is still sent, for a moment, whether
    // the input had ended already or not.
    let stopping: @Sendable () -> Void = {
      reading.cancel()
      publisher.stop(after: Self.drainLimit)
    }
    stop.whenRequested(stopping)
    if stop.signal != nil { stopping() }
    publisher.whenEnded { reading.cancel() }
    let readFailure = await reading.value
    let outcome = await publisher.finish()
    publisher.stop()
    if let failure = outcome.failure {
      log.error(Self.message(failure, endpoint: options.redis.endpoint) + "; " + outcome.storedText)
      return Self.exitStatus(failure)
    }
    if let signal = stop.signal {
      if !outcome.isComplete {
        log.warning("stopped before Redis acknowledged every keystroke: \(outcome.storedText)")
      }
      return signal.exitStatus
    }
    if let readFailure {
      log.error("\(readFailure)")
      return .ioError
    }
    return .success
  }

  /// What ended publishing, in one clause naming the server.
  static func message(_ failure: PublishFailure, endpoint: RedisEndpoint) -> String {
    switch failure {
    case .outOfMemory(let message): "Redis at \(endpoint) is out of memory (\(message))"
    case .refused(let message): "Redis at \(endpoint) refused a keystroke: \(message)"
    case .unusable(let error): "cannot use Redis at \(endpoint): \(error)"
    case .prefixChanged(let error): error.description
    }
  }

  /// A full Redis is a temporary failure; a refusal an I/O error, as a write refused by a disk;
  /// a server that cannot be used, as one that cannot be reached.
  static func exitStatus(_ failure: PublishFailure) -> ExitStatus {
    switch failure {
    case .outOfMemory: .temporaryFailure
    case .refused: .ioError
    case .unusable: .unavailable
    case .prefixChanged(let error): error.exitStatus
    }
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
