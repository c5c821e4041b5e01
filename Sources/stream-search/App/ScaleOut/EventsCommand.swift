// `stream-search events`: the events the workers committed, as JSON Lines on standard output,
// each once, in order per session, numbered by `seq` as a local run numbers its output.
import Foundation
import LineIO
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
    let log = self.log
    let reader = EventReader(
      endpoint: options.redis.endpoint, keys: options.redis.keys, stop: stop.wakeUp, notice: notices.receive,
      missed: { gaps in for line in Self.describe(gaps) { log.warning(line) } })
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

  /// What the reader missed, in at most two lines: the events trimmed before they were read (how
  /// many, of which shards), and the shards whose history is gone.
  static func describe(_ gaps: [EventGap]) -> [String] {
    var counted: [(shard: Int, count: Int)] = []
    var uncounted: [Int] = []
    var lost: [Int] = []
    for gap in gaps {
      switch gap {
      case .trimmed(let shard, let count?): counted.append((shard, count))
      case .trimmed(let shard, nil): uncounted.append(shard)
      case .historyLost(let shard): lost.append(shard)
      }
    }
    var lines: [String] = []
    if !counted.isEmpty || !uncounted.isEmpty {
      let total = counted.map(\.count).reduce(0, +)
      var parts = counted.map { "\($0.count) of shard \($0.shard)" }
      parts += uncounted.map { "some of shard \($0) (Redis before 7.0 does not count them)" }
      let what = uncounted.isEmpty ? "\(total) event\(total == 1 ? "" : "s")" : "events"
      lines.append(
        "missed \(what) trimmed before they were read: \(parts.joined(separator: ", ")) "
          + "(the workers keep about --events-kept events per shard)")
    }
    if !lost.isEmpty {
      let shards = lost.map(String.init).joined(separator: ", ")
      lines.append(
        "the events of shard\(lost.count == 1 ? "" : "s") \(shards) are gone (Redis was flushed, or restarted "
          + "without its data): those committed after the last one read cannot be read; reading on")
    }
    return lines
  }
}
