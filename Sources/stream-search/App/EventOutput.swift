// Where events go: standard output, one write(2) per event so a downstream jq or tee sees each
// event when it happens, in the format chosen. Remembers when the reader has gone away.
import Pipeline
import Streams
import Synchronization

/// Encodes events and writes each one as it comes; stops writing once the reader has gone.
///
/// The lock only decides: whether to write, and what to do once a write failed. The write, and
/// the action run when the output closes (which stops the run), happen with it released.
final class EventOutput: Sendable {
  private struct State {
    /// The buffer events are encoded into, kept between events; taken out while one is written.
    var buffer: [UInt8] = []
    var closed = false
    var failure: Int32?
    var onClosed: (@Sendable () -> Void)?

    /// The buffer to encode the next event into, or nil once the output is closed.
    mutating func takeBuffer() -> [UInt8]? {
      guard !closed else { return nil }
      defer { buffer = [] }
      return buffer
    }

    /// Records the end of the output; the action to run, the first time only.
    mutating func close(after error: OutputError) -> (@Sendable () -> Void)? {
      guard !closed else { return nil }
      closed = true
      if case .failed(let errno) = error { failure = errno }
      defer { onClosed = nil }
      return onClosed
    }
  }

  private let writer: OutputWriter
  private let format: CommandLineOptions.OutputFormat
  private let statsLog: Log?
  private let state = Mutex(State())
  /// `State.closed`, stored under the lock when it changes, for ``isClosed`` to read without it:
  /// a replay asks between every two lines.
  private let closed = Atomic(false)

  /// An output of `format` to `writer`; with `statsLog`, the summary is also logged there.
  init(writer: OutputWriter, format: CommandLineOptions.OutputFormat, statsLog: Log?) {
    self.writer = writer
    self.format = format
    self.statsLog = statsLog
  }

  /// Whether the reader went away (EPIPE): the run should end quietly with status 0.
  var isClosed: Bool { closed.load(ordering: .acquiring) }

  /// The errno of a failed write other than EPIPE, if any: the run ends with status 74.
  var failure: Int32? { state.withLock { $0.failure } }

  /// Calls `action` once when the reader goes away or writing fails.
  func onClosed(_ action: @escaping @Sendable () -> Void) {
    state.withLock { $0.onClosed = action }
  }

  /// Writes one event. Called by the pipeline, one call at a time (its sink's contract); a call
  /// while another writes would still be whole, in a buffer of its own.
  func write(_ event: SearchEvent) {
    if case .summary = event.kind, let statsLog {
      statsLog.stats(PrettyEventFormatter().format(event))
    }
    guard var buffer = state.withLock({ $0.takeBuffer() }) else { return }
    buffer.removeAll(keepingCapacity: true)
    switch format {
    case .jsonl:
      JSONLinesEncoder().encode(event, into: &buffer)
    case .pretty:
      buffer.append(contentsOf: PrettyEventFormatter().format(event).utf8)
      buffer.append(UInt8(ascii: "\n"))
    }
    do throws(OutputError) {
      try writer.write(buffer)
      state.withLock { $0.buffer = buffer }
    } catch {
      // Closed, failed, or stopped while the reader took nothing: no later event is written.
      let stop = state.withLock { state in
        defer { closed.store(state.closed, ordering: .releasing) }
        return state.close(after: error)
      }
      stop?()
    }
  }
}
