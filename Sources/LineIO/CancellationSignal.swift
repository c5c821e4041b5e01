import Synchronization

// A self-pipe: the way to wake a thread blocked in poll(2) at once, with no time-out. The reader
// thread polls its input and `readEnd` together; cancellation writes one byte to `writeEnd`.
// Public so that a program can stop the blocking readers it makes; the pipe and the wait on it
// are the package's plumbing.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A one-shot wake-up for threads blocked in `poll(2)`: a reader given the signal waits on it
/// beside its descriptor, and ``signal()`` wakes every such wait at once, now and later.
///
/// Useful to make a blocking read or write observe a stop request, e.g. a signal handler's:
///
/// ```swift
/// var ends: [Int32] = [-1, -1]
/// _ = pipe(&ends)                          // a writer that never writes
/// let stop = try CancellationSignal()
/// var reader = BlockingLineReader(fileDescriptor: ends[0], stoppingOn: stop)
/// stop.signal()                            // e.g. from the queue that observes SIGINT
/// // reader.next() throws LineInputError.stopped at once, though nothing was written
/// ```
///
/// Signalling is permanent: a wait that starts afterwards returns at once too.
public final class CancellationSignal: Sendable {
  /// Becomes readable, for good, once `signal()` has been called.
  package let readEnd: Int32
  private let writeEnd: Int32

  /// Creates the pipe, close-on-exec so that child processes do not inherit it.
  ///
  /// - Throws: ``LineInputError/readFailed(errno:)`` if `pipe(2)` fails (e.g. `EMFILE`).
  public init() throws(LineInputError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw .readFailed(errno: errno) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  /// Makes `readEnd` readable. Safe to call more than once (only the first call writes), and
  /// from any thread; it never blocks.
  public func signal() {
    guard !signalled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    var byte: UInt8 = 1
    while write(writeEnd, &byte, 1) < 0 && errno == EINTR {}
  }

  /// What ``wait(for:ready:)`` saw.
  package enum Wait: Sendable, Equatable {
    /// The descriptor is ready (or at its end, or its other side is gone).
    case ready
    /// The signal fired while the descriptor was not ready.
    case stopped
    /// poll(2) failed with this errno.
    case failed(errno: Int32)
  }

  /// Blocks until `descriptor` is ready for `events` (`POLLIN` or `POLLOUT`), or this signal
  /// fires. Readiness wins when both hold, so work that can still be done is done.
  package func wait(for descriptor: Int32, ready events: Int32) -> Wait {
    var entries = [
      pollfd(fd: descriptor, events: Int16(events), revents: 0),
      pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      entries[0].revents = 0
      entries[1].revents = 0
      if poll(&entries, 2, -1) < 0 {
        if errno == EINTR { continue }
        return .failed(errno: errno)
      }
      if entries[0].revents != 0 { return .ready }
      if entries[1].revents != 0 { return .stopped }
    }
  }

  /// Whether ``signal()`` has been called.
  public var isSignalled: Bool { signalled.load(ordering: .acquiring) }

  private let signalled = Atomic<Bool>(false)

  deinit {
    FileDescriptorIO.closeDescriptor(readEnd)
    FileDescriptorIO.closeDescriptor(writeEnd)
  }
}
