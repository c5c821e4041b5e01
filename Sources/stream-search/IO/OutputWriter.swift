// Writes events to standard output as they happen: straight to the file descriptor with write(2),
// nothing held back between calls, and a closed pipe reported as a normal end rather than a crash
// (as `stream-search | head` must end quietly with status 0).
import Foundation
import LineIO
import Streams
import Synchronization

/// Writes whole buffers to a file descriptor, one call per event (or small batch of events).
///
/// Each ``write(_:)`` is one call of Streams' `FileDescriptorWriter`, which loops until every
/// byte is written (through EINTR and EAGAIN) and, with a `stop` signal on a pipe, FIFO or socket,
/// gives up with ``OutputError/stopped`` when the reader has stopped reading; see its Stopping
/// section. This type adds what a tool's output needs on top: calls are serialised, in the order
/// they are made and with no lock held while writing, so events from several tasks never
/// interleave; and after a write fails with ``OutputError/closed`` every later write fails the
/// same way at once, without another system call.
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
  /// A write that waits for the one in progress: the writing thread writes it, then wakes its
  /// caller with the outcome.
  private final class QueuedWrite: Sendable {
    let bytes: [UInt8]
    private let outcome = Mutex<OutputError??>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Called once by the writing thread: nil when every byte was written.
    func finish(_ error: OutputError?) {
      outcome.withLock { $0 = .some(error) }
      done.signal()
    }

    /// Blocks until ``finish(_:)``; throws what the write met.
    func waitForOutcome() throws(OutputError) {
      done.wait()
      if let error = outcome.withLock({ $0 ?? nil }) { throw error }
    }
  }

  private struct State {
    /// The reader went away: every write from now on fails at once.
    var isClosed = false
    /// Writes to do, and whether a thread is doing them.
    var writes = DeliveryQueue<QueuedWrite>()
  }

  /// The write(2) loop, on a descriptor the writer does not close.
  private let descriptor: FileDescriptorWriter
  /// Decides who writes: never held during a write.
  private let state = Mutex(State())

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
  /// Writes from several threads are kept whole and made in the order they were called. The
  /// first caller to find the descriptor idle writes, with no lock held; a caller that comes
  /// meanwhile waits, and the writing thread writes its bytes too, before returning itself.
  ///
  /// - Throws: ``OutputError/closed`` when the reader has gone away (EPIPE), now or before;
  ///   ``OutputError/stopped`` when the stop came while the descriptor was full;
  ///   ``OutputError/failed(errno:)`` for any other error. Bytes written before a failure stay written.
  func write(_ bytes: [UInt8]) throws(OutputError) {
    enum Turn {
      case closed
      case write
      case wait(QueuedWrite)
    }
    let turn = state.withLock { state -> Turn in
      if state.isClosed { return .closed }
      if state.writes.claim() { return .write }
      let queued = QueuedWrite(bytes)
      state.writes.enqueue(queued)
      return .wait(queued)
    }
    switch turn {
    case .closed:
      throw .closed
    case .wait(let queued):
      try queued.waitForOutcome()
    case .write:
      let error = attempt(bytes)
      writeQueued()
      if let error { throw error }
    }
  }

  /// Writes `bytes` unless the reader has gone; records that it has.
  private func attempt(_ bytes: [UInt8]) -> OutputError? {
    do throws(OutputError) {
      try descriptor.write(bytes)
      return nil
    } catch {
      if error == .closed { state.withLock { $0.isClosed = true } }
      return error
    }
  }

  /// Writes what other threads queued while this one wrote, in order, and wakes each caller.
  private func writeQueued() {
    while let (queued, isClosed) = state.withLock({ state in state.writes.next().map { ($0, state.isClosed) } }) {
      queued.finish(isClosed ? .closed : attempt(queued.bytes))
    }
  }
}

/// Makes a write to a closed pipe fail with EPIPE instead of killing the process with SIGPIPE.
/// Call once at start, before anything is written.
func ignoreSIGPIPE() {
  signal(SIGPIPE, SIG_IGN)
}
