// Writes events to standard output as they happen: straight to the file descriptor with write(2),
// nothing held back between calls, and a closed pipe reported as a normal end rather than a crash
// (as `stream-search | head` must end quietly with status 0).
import Foundation
import Streams
import Synchronization

/// Why bytes could not be written.
enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reader went away (EPIPE): stop writing and end quietly with ``ExitStatus/success``.
  case closed
  /// Any other write(2) failure, with its `errno`: end with ``ExitStatus/ioError``.
  case failed(errno: Int32)
  /// A stop was requested while the descriptor could take nothing more: skip what is left.
  case stopped

  /// A short explanation, e.g. `output closed` or `No space left on device`.
  var description: String {
    switch self {
    case .closed: "output closed"
    case .failed(let code): String(cString: strerror(code))
    case .stopped: "stopped while the output was full"
    }
  }
}

/// Writes whole buffers to a file descriptor, one call per event (or small batch of events).
///
/// Each ``write(_:)`` loops until every byte is written, retrying after signals (EINTR) and
/// waiting for a non-blocking descriptor to drain (EAGAIN); calls are serialised, so events from
/// several tasks never interleave. Nothing is buffered across calls: when `write` returns, the
/// bytes are in the kernel. After a write fails with ``OutputError/closed`` every later write fails
/// the same way at once.
///
/// With a `stop` signal and a descriptor that can block (a pipe, FIFO or socket), the writer
/// waits in poll(2) for room before each write of at most `PIPE_BUF` bytes (which a pipe with
/// room takes without blocking), so a stop request ends a wait on a reader that stopped reading:
/// the write throws ``OutputError/stopped``. After the stop, writes still go through while the
/// descriptor has room, and fail at once when it has none. An event larger than `PIPE_BUF`
/// then reaches a pipe in several writes.
///
/// Call ``ignoreSIGPIPE()`` first, or a closed pipe kills the process instead of reporting
/// ``OutputError/closed``.
///
/// ```swift
/// ignoreSIGPIPE()
/// do throws(OutputError) {
///   try OutputWriter.standardOutput.write(line + "\n")
/// } catch .closed {
///   exit(ExitStatus.success.rawValue)   // the reader went away: not a failure
/// } catch {
///   exit(ExitStatus.ioError.rawValue)
/// }
/// ```
final class OutputWriter: Sendable {
  /// The descriptor written to; not closed by the writer.
  let fileDescriptor: Int32
  /// Whether the reader has gone away; also the lock that keeps one event's bytes together.
  private let isClosed = Mutex(false)
  /// Set when writes must observe a stop request: the signal, for a descriptor that can block.
  private let stop: CancellationSignal?

  /// Standard output (descriptor 1).
  static let standardOutput = OutputWriter(fileDescriptor: STDOUT_FILENO)
  /// Standard error (descriptor 2).
  static let standardError = OutputWriter(fileDescriptor: STDERR_FILENO)

  /// A writer to `fileDescriptor`, which stays owned by the caller; with `stop`, a write that
  /// would block gives up when `stop` is signalled.
  init(fileDescriptor: Int32, stoppingOn stop: CancellationSignal? = nil) {
    self.fileDescriptor = fileDescriptor
    self.stop = Self.canBlock(fileDescriptor) ? stop : nil
  }

  /// Whether writes to `descriptor` can wait on a reader: a pipe, FIFO or socket. Files and
  /// devices (/dev/null, a terminal) take what they are given.
  private static func canBlock(_ descriptor: Int32) -> Bool {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return false }
    let kind = status.st_mode & S_IFMT
    return kind == S_IFIFO || kind == S_IFSOCK
  }

  /// Writes `text` as UTF-8; see the byte version.
  func write(_ text: String) throws(OutputError) {
    try write(Array(text.utf8))
  }

  /// Writes every byte of `bytes`, blocking until the kernel has taken them all.
  ///
  /// - Throws: ``OutputError/closed`` when the reader has gone away (EPIPE), now or before;
  ///   ``OutputError/failed(errno:)`` for any other error. Bytes written before a failure stay written.
  func write(_ bytes: [UInt8]) throws(OutputError) {
    try isClosed.withLock { closed throws(OutputError) in
      if closed { throw .closed }
      do throws(OutputError) {
        try Self.writeAll(bytes, to: fileDescriptor, stoppingOn: stop)
      } catch .closed {
        closed = true
        throw .closed
      }
    }
  }

  /// The write(2) loop: partial writes continue where they stopped, EINTR retries, EAGAIN waits in
  /// poll(2) until the descriptor can take more. With `stop`, every write first waits in poll(2)
  /// for room or the stop, and writes at most PIPE_BUF bytes, which a pipe with room takes whole.
  private static func writeAll(
    _ bytes: [UInt8], to descriptor: Int32, stoppingOn stop: CancellationSignal?
  ) throws(OutputError) {
    var failure: OutputError?
    let most = stop == nil ? Int.max : Int(PIPE_BUF)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        if let stop, let refusal = waitForRoom(descriptor, or: stop) {
          failure = refusal
          return
        }
        let written = systemWrite(descriptor, base + offset, min(buffer.count - offset, most))
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
          var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
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

  /// Waits until `descriptor` has room (or its reader is gone, which the write then reports as
  /// EPIPE): nil. Room wins over the stop, so that shutdown events and the summary are still
  /// written when they can be; with no room and the stop signalled, ``OutputError/stopped``.
  private static func waitForRoom(_ descriptor: Int32, or stop: CancellationSignal) -> OutputError? {
    switch stop.wait(for: descriptor, ready: POLLOUT) {
    case .ready: nil
    case .stopped: .stopped
    case .failed(let code): .failed(errno: code)
    }
  }
}

/// Makes a write to a closed pipe fail with EPIPE instead of killing the process with SIGPIPE.
/// Call once at start, before anything is written.
func ignoreSIGPIPE() {
  signal(SIGPIPE, SIG_IGN)
}

/// write(2), named apart from ``OutputWriter/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
  Glibc.write(descriptor, bytes, count)
  #elseif canImport(Musl)
  Musl.write(descriptor, bytes, count)
  #else
  Darwin.write(descriptor, bytes, count)
  #endif
}
