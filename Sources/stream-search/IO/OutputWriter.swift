// Writes events to standard output as they happen: straight to the file descriptor with write(2),
// nothing held back between calls, and a closed pipe reported as a normal end rather than a crash
// (as `stream-search | head` must end quietly with status 0).
import Foundation
import Streams
import Synchronization

/// Writes whole buffers to a file descriptor, one call per event (or small batch of events).
///
/// Each ``write(_:)`` is one call of Streams' `FileDescriptorWriter`, which loops until every
/// byte is written (through EINTR and EAGAIN) and, with a `stop` signal on a pipe, FIFO or socket,
/// gives up with ``OutputError/stopped`` when the reader has stopped reading; see its Stopping
/// section. This type adds what a tool's output needs on top: calls are serialised, so events
/// from several tasks never interleave, and after a write fails with ``OutputError/closed`` every
/// later write fails the same way at once, without another system call.
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
  /// The write(2) loop, on a descriptor the writer does not close.
  private let descriptor: FileDescriptorWriter
  /// Whether the reader has gone away; also the lock that keeps one event's bytes together.
  private let isClosed = Mutex(false)

  /// The descriptor written to; not closed by the writer.
  var fileDescriptor: Int32 { descriptor.fileDescriptor }

  /// Standard output (descriptor 1).
  static let standardOutput = OutputWriter(fileDescriptor: STDOUT_FILENO)
  /// Standard error (descriptor 2).
  static let standardError = OutputWriter(fileDescriptor: STDERR_FILENO)

  /// A writer to `fileDescriptor`, which stays owned by the caller; with `stop`, a write that
  /// would block gives up when `stop` is signalled.
  init(fileDescriptor: Int32, stoppingOn stop: CancellationSignal? = nil) {
    descriptor = FileDescriptorWriter(fileDescriptor: fileDescriptor, stoppingOn: stop)
  }

  /// Writes `text` as UTF-8; see the byte version.
  func write(_ text: String) throws(OutputError) {
    try write(Array(text.utf8))
  }

  /// Writes every byte of `bytes`, blocking until the kernel has taken them all.
  ///
  /// - Throws: ``OutputError/closed`` when the reader has gone away (EPIPE), now or before;
  ///   ``OutputError/stopped`` when the stop came while the descriptor was full;
  ///   ``OutputError/failed(errno:)`` for any other error. Bytes written before a failure stay written.
  func write(_ bytes: [UInt8]) throws(OutputError) {
    try isClosed.withLock { closed throws(OutputError) in
      if closed { throw .closed }
      do throws(OutputError) {
        try descriptor.write(bytes)
      } catch .closed {
        closed = true
        throw .closed
      }
    }
  }
}

/// Makes a write to a closed pipe fail with EPIPE instead of killing the process with SIGPIPE.
/// Call once at start, before anything is written.
func ignoreSIGPIPE() {
  signal(SIGPIPE, SIG_IGN)
}
