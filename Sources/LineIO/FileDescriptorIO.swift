// The few system calls the line readers make, wrapped once: open, read and poll retried on
// EINTR, failures turned into `LineInputError`. Internal: callers see only the readers.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls of the line readers; `package` only so that tests can size their inputs by
/// `chunkSize`.
package enum FileDescriptorIO {
  /// The size of one `read(2)`: large enough that a fast pipe costs few system calls, small
  /// enough that the lines of one chunk are a bounded amount of memory.
  package static let chunkSize = 1 << 16

  /// Opens `path` for reading, close-on-exec. With `nonBlocking`, opening a FIFO returns at once
  /// even when no writer is there yet, instead of blocking the calling thread.
  ///
  /// A directory is refused here with `EISDIR`: `open(2)` lets one be opened for reading, and
  /// only the first `read(2)` would fail, after the caller had started its run, and without the
  /// path.
  static func openForReading(path: String, nonBlocking: Bool) throws(LineInputError) -> Int32 {
    let flags = O_RDONLY | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
    while true {
      let descriptor = path.withCString { open($0, flags) }
      if descriptor >= 0 {
        guard !isDirectory(descriptor) else {
          closeDescriptor(descriptor)
          throw .cannotOpen(path: path, errno: EISDIR)
        }
        return descriptor
      }
      if errno != EINTR { throw .cannotOpen(path: path, errno: errno) }
    }
  }

  /// Whether `descriptor` is a directory.
  private static func isDirectory(_ descriptor: Int32) -> Bool {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return false }
    return status.st_mode & S_IFMT == S_IFDIR
  }

  /// Reads at most `buffer.count` bytes: the count read, 0 at end of file, nil when a
  /// non-blocking descriptor has nothing yet.
  static func readChunk(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer
  ) throws(LineInputError) -> Int? {
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return nil
      case let code: throw .readFailed(errno: code)
      }
    }
  }

  /// Whether `descriptor` is a FIFO or a pipe: the only kind of input that follow mode reopens.
  static func isFIFO(_ descriptor: Int32) -> Bool {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return false }
    return status.st_mode & S_IFMT == S_IFIFO
  }

  /// Closes a descriptor, retrying nothing: after EINTR the descriptor is closed on Linux.
  static func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
  }
}

extension FileDescriptorIO {
  /// Blocks until `descriptor` is readable (or at end of file): used only when a caller hands a
  /// non-blocking descriptor to a blocking reader, which would otherwise spin on EAGAIN.
  static func waitUntilReadable(_ descriptor: Int32) throws(LineInputError) {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while poll(&entry, 1, -1) < 0 {
      if errno != EINTR { throw .readFailed(errno: errno) }
    }
  }

  /// Blocks until `descriptor` is readable (or at end of file, or a FIFO's writer has come and
  /// gone) or `stop` is signalled. Input that is ready is read first: a reader stops where it would
  /// otherwise wait, and its caller checks for the stop between lines.
  ///
  /// - Throws: ``LineInputError/stopped`` once `stop` is signalled while nothing is ready.
  static func waitUntilReadable(_ descriptor: Int32, or stop: CancellationSignal) throws(LineInputError) {
    switch stop.wait(for: descriptor, ready: POLLIN) {
    case .ready: return
    case .stopped: throw .stopped
    case .failed(let code): throw .readFailed(errno: code)
    }
  }
}
