// Where events go: standard output, one write(2) per event so a downstream jq or tee sees each
// event when it happens, in the format chosen. Remembers when the reader has gone away.
import Pipeline
import Streams
import Synchronization

/// Encodes events and writes each one as it comes; stops writing once the reader has gone.
final class EventOutput: Sendable {
  private struct State {
    var buffer: [UInt8] = []
    var closed = false
    var failure: Int32?
    var onClosed: (@Sendable () -> Void)?
  }

  private let writer: OutputWriter
  private let format: CommandLineOptions.OutputFormat
  private let statsLog: Log?
  private let state = Mutex(State())

  /// An output of `format` to `writer`; with `statsLog`, the summary is also logged there.
  init(writer: OutputWriter, format: CommandLineOptions.OutputFormat, statsLog: Log?) {
    self.writer = writer
    self.format = format
    self.statsLog = statsLog
  }

  /// Whether the reader went away (EPIPE): the run should end quietly with status 0.
  var isClosed: Bool { state.withLock { $0.closed } }

  /// The errno of a failed write other than EPIPE, if any: the run ends with status 74.
  var failure: Int32? { state.withLock { $0.failure } }

  /// Calls `action` once when the reader goes away or writing fails.
  func onClosed(_ action: @escaping @Sendable () -> Void) {
    state.withLock { $0.onClosed = action }
  }

  /// Writes one event. Called by the pipeline, one call at a time.
  func write(_ event: SearchEvent) {
    if case .summary = event.kind, let statsLog {
      statsLog.stats(PrettyEventFormatter().format(event))
    }
    let stop = state.withLock { state -> (@Sendable () -> Void)? in
      guard !state.closed else { return nil }
      state.buffer.removeAll(keepingCapacity: true)
      switch format {
      case .jsonl:
        JSONLinesEncoder().encode(event, into: &state.buffer)
      case .pretty:
        state.buffer.append(contentsOf: PrettyEventFormatter().format(event).utf8)
        state.buffer.append(UInt8(ascii: "\n"))
      }
      do throws(OutputError) {
        try writer.write(state.buffer)
        return nil
      } catch {
        // Closed, failed, or stopped while the reader took nothing: no later event is written.
        state.closed = true
        if case .failed(let errno) = error { state.failure = errno }
        defer { state.onClosed = nil }
        return state.onClosed
      }
    }
    stop?()
  }
}
