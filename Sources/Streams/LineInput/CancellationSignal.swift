// A self-pipe: the way to wake a thread blocked in poll(2) at once, with no time-out. The reader
// thread polls its input and `readEnd` together; cancellation writes one byte to `writeEnd`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class CancellationSignal: Sendable {
  /// Becomes readable, for good, once `signal()` has been called.
  let readEnd: Int32
  private let writeEnd: Int32

  /// Creates the pipe, close-on-exec so that child processes do not inherit it.
  ///
  /// - Throws: ``LineInputError/readFailed(errno:)`` if `pipe(2)` fails (e.g. `EMFILE`).
  init() throws(LineInputError) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw .readFailed(errno: errno) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  /// Makes `readEnd` readable. Called at most once, so the pipe never fills.
  func signal() {
    var byte: UInt8 = 1
    while write(writeEnd, &byte, 1) < 0 && errno == EINTR {}
  }

  deinit {
    FileDescriptorIO.closeDescriptor(readEnd)
    FileDescriptorIO.closeDescriptor(writeEnd)
  }
}
