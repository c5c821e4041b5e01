// A re-armable wake-up for a thread that waits in poll(2): signalled when there is work, drained
// by the waiter. Unlike `CancellationSignal` (one-shot, for stopping), it can fire many times.
import LineIO
import Streams
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class WakePipe: Sendable {
  private let readEnd: Int32
  private let writeEnd: Int32
  private let armed = Atomic<Bool>(false)

  init() throws(LineInputError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw .readFailed(errno: errno) }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL, 0) | O_NONBLOCK)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  /// Wakes the waiter (once, however often it is called before the waiter runs). Never blocks.
  func signal() {
    guard !armed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Waits until signalled, `stop` fires, or `timeout` passes (read on `clock`); true when
  /// signalled. The signal is consumed.
  @discardableResult
  func wait(timeout: Duration, clock: ContinuousClock, stop: CancellationSignal?) -> Bool {
    let deadline = clock.now.advanced(by: timeout)
    while !armed.load(ordering: .acquiring) {
      if stop?.isSignalled == true { return false }
      let left = clock.now.duration(to: deadline)
      guard left > .zero else { return false }
      let parts = (left + .nanoseconds(999_999)).components
      let milliseconds = Int32(clamping: parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000)
      var entries = [
        pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
        pollfd(fd: stop?.readEnd ?? -1, events: Int16(POLLIN), revents: 0),
      ]
      _ = poll(&entries, 2, max(1, milliseconds))
    }
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(readEnd, &buffer, buffer.count) > 0 {}
    armed.store(false, ordering: .releasing)
    return true
  }
}
