// A bounded wait that a stop request ends early: the backoff between reconnections and the gap
// between a worker's lease rounds. poll(2) on the stop signal, with a timeout read from the
// clock each thread is given.
import LineIO
import Streams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum StopWait {
  /// Waits `duration` on `clock`, or until `stop` fires; true when it fired.
  static func wait(for duration: Duration, clock: ContinuousClock, stop: CancellationSignal?) -> Bool {
    let deadline = clock.now.advanced(by: duration)
    while true {
      if stop?.isSignalled == true { return true }
      let left = clock.now.duration(to: deadline)
      guard left > .zero else { return false }
      let parts = (left + .nanoseconds(999_999)).components
      let milliseconds = Int32(clamping: parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000)
      var entries = [pollfd(fd: stop?.readEnd ?? -1, events: Int16(POLLIN), revents: 0)]
      _ = poll(&entries, 1, max(1, milliseconds))
    }
  }
}
