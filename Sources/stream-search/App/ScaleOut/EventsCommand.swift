// `stream-search events`: the events the workers committed, as JSON Lines on standard output,
// each once, in order per session, numbered by `seq` as a local run numbers its output.
import Foundation
import ScaleOut
import Streams
import Synchronization

/// Prints the committed events and says how the process should exit.
struct EventsCommand {
  let options: EventsOptions
  let writer: OutputWriter
  let log: Log
  let stop: StopRequest

  private enum Ending: Sendable {
    case done
    case outputClosed
    case outputFailed(Int32)
    case failed(ScaleOutError)
  }

  func run() async -> ExitStatus {
    let notices = RedisNotices(endpoint: options.redis.endpoint, log: log)
    let reader = EventReader(
      endpoint: options.redis.endpoint, keys: options.redis.keys, stop: stop.wakeUp, notice: notices.receive)
    let options = self.options
    let writer = self.writer
    let ending = await withCheckedContinuation { (continuation: CheckedContinuation<Ending, Never>) in
      // Reading blocks: a thread of its own, never one of the task pool's.
      Thread.detachNewThread {
        var seq = 0
        var ending = Ending.done
        do {
          try reader.run(follow: options.follow, session: options.session) { event in
            seq += 1
            do throws(OutputError) {
              try writer.write(event.line(seq: seq))
              return true
            } catch .failed(let code) {
              ending = .outputFailed(code)
              return false
            } catch {
              ending = .outputClosed
              return false
            }
          }
        } catch let error as ScaleOutError {
          ending = .failed(error)
        } catch {
          ending = .failed(.unreachable(options.redis.endpoint, .closed))
        }
        continuation.resume(returning: ending)
      }
    }
    if let signal = stop.signal { return signal.exitStatus }
    switch ending {
    case .done, .outputClosed:
      return .success
    case .outputFailed(let code):
      log.error("Cannot write to standard output: \(String(cString: strerror(code)))")
      return .ioError
    case .failed(let error):
      log.error(error.description)
      return error.exitStatus
    }
  }
}
