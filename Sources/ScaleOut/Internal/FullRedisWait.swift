// A full Redis (`maxmemory` reached under `noeviction`) refuses writes, and inside `MULTI` every
// command, with `-OOM`: for a worker that is a pause, not a failure. Its reads and commits wait
// with the reconnection's backoff and are tried again; the user is told once when the pause
// begins and once when it ends.
import LineIO
import Streams

struct FullRedisWait {
  private let backoff = ReconnectBackoff()
  private var next: Duration
  /// Whether the last try was refused.
  private(set) var isWaiting = false

  init() {
    next = backoff.first
  }

  /// A try was refused with `message`: says so (the first time) and waits before the next; true
  /// when `stop` fired meanwhile.
  mutating func refused(
    _ message: String, notice: @Sendable (LinkNotice) -> Void, stop: CancellationSignal?
  ) -> Bool {
    if !isWaiting {
      isWaiting = true
      notice(.outOfMemory(message))
    }
    let stopped = StopWait.wait(for: next, clock: ContinuousClock(), stop: stop)
    next = min(next * 2, backoff.ceiling)
    return stopped
  }

  /// A try went through: says so if tries were refused before.
  mutating func succeeded(notice: @Sendable (LinkNotice) -> Void) {
    guard isWaiting else { return }
    isWaiting = false
    next = backoff.first
    notice(.roomAgain)
  }
}
