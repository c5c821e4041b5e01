// The one write(2) loop of the package: every byte of a buffer to a file descriptor, through
// partial writes, signals and a full pipe, optionally giving up when a stop is requested. The
// reading side's system calls are in FileDescriptorIO; this is the writing side, shared by the
// package's writers (the CLI's output, the test harness) so they handle a closed pipe alike.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes whole buffers to a file descriptor with write(2), nothing buffered: when
/// ``write(_:)`` returns, every byte is in the kernel.
///
/// Useful for a program's standard output, a FIFO or the input of a child process: the loop
/// continues after a partial write, retries after a signal (EINTR) and, on a non-blocking
/// descriptor that is full (EAGAIN), waits in poll(2) until it can take more.
///
/// ```swift
/// signal(SIGPIPE, SIG_IGN)                     // else a closed pipe kills the process
/// var ends: [Int32] = [-1, -1]
/// _ = pipe(&ends)
/// let writer = FileDescriptorWriter(fileDescriptor: ends[1])
/// try writer.write(Array("one line\n".utf8))   // returns once the kernel holds every byte
/// close(ends[0])                               // the reader goes away
/// // the next write throws OutputError.closed: for a tool's standard output, a quiet end
/// ```
///
/// ## Stopping
/// With a `stop` signal and a descriptor that can block (a pipe, FIFO or socket), each write(2)
/// is preceded by a wait in poll(2) for room or the stop, and writes at most `PIPE_BUF` bytes,
/// which a pipe with room takes without blocking; so a stop ends a wait on a reader that stopped
/// reading. Room wins over the stop: after the stop, bytes still go through while the descriptor
/// has room, and the write fails with ``OutputError/stopped`` as soon as it has none. A buffer
/// larger than `PIPE_BUF` then reaches a pipe in several writes. Other descriptors (files,
/// terminals, /dev/null) never block for long, so the signal is not consulted for them.
///
/// ## Caveats
/// Bytes written before a failure stay written. The writer holds no lock: callers that write from
/// several threads and need each buffer kept whole serialise the calls themselves. It never
/// closes the descriptor.
package struct FileDescriptorWriter: Sendable {
  /// The descriptor written to; owned by the caller.
  package let fileDescriptor: Int32
  /// The stop to observe, kept only for a descriptor that can block.
  private let stop: CancellationSignal?

  /// A writer to `fileDescriptor`; with `stop`, a write that would block on a pipe, FIFO or socket
  /// gives up once `stop` is signalled (see the type's Stopping section).
  package init(fileDescriptor: Int32, stoppingOn stop: CancellationSignal? = nil) {
    self.fileDescriptor = fileDescriptor
    self.stop = stop.flatMap { Self.canBlock(fileDescriptor) ? $0 : nil }
  }

  /// Writes every byte of `bytes`, returning once the kernel has taken them all.
  ///
  /// - Throws: ``OutputError/closed`` when the reader has gone away (EPIPE, with SIGPIPE
  ///   ignored); ``OutputError/stopped`` when the stop was signalled and the descriptor had no
  ///   room; ``OutputError/failed(errno:)`` for any other error. The call does not retry after any
  ///   of them, and a later call tries again.
  package func write(_ bytes: [UInt8]) throws(OutputError) {
    var failure: OutputError?
    let most = stop == nil ? Int.max : Int(PIPE_BUF)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        if let stop, let refusal = Self.waitForRoom(fileDescriptor, or: stop) {
          failure = refusal
          return
        }
        let written = systemWrite(fileDescriptor, base + offset, min(buffer.count - offset, most))
        if written >= 0 {
          offset += written
          continue
        }
        switch errno {
        case EINTR:
          continue
        case EAGAIN, EWOULDBLOCK:
          // With `stop`, the wait at the top of the loop does this.
          guard stop == nil else { continue }
          var request = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&request, 1, -1)
        case EPIPE:
          failure = .closed
          return
        case let code:
          failure = .failed(errno: code)
          return
        }
      }
    }
    if let failure { throw failure }
  }

  /// Whether writes to `descriptor` can wait on a reader: a pipe, FIFO or socket. Files and
  /// devices (/dev/null, a terminal) take what they are given.
  private static func canBlock(_ descriptor: Int32) -> Bool {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return false }
    let kind = status.st_mode & S_IFMT
    return kind == S_IFIFO || kind == S_IFSOCK
  }

  /// Waits until `descriptor` has room (or its reader is gone, which the write then reports as
  /// EPIPE): nil. Room wins over the stop, so that work that can still be done is done; with no
  /// room and the stop signalled, ``OutputError/stopped``.
  private static func waitForRoom(_ descriptor: Int32, or stop: CancellationSignal) -> OutputError? {
    switch stop.wait(for: descriptor, ready: POLLOUT) {
    case .ready: nil
    case .stopped: .stopped
    case .failed(let code): .failed(errno: code)
    }
  }
}

/// write(2), named apart from ``FileDescriptorWriter/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
  #else
    Darwin.write(descriptor, bytes, count)
  #endif
}
