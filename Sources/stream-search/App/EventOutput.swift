// Where events go: standard output, in the format chosen, encoded and written on a thread of the
// output's own, so the thread that runs the engine only hands events over. Live, each event is
// written as soon as it comes, so a downstream jq or tee sees it when it happens; a replay hands
// them over in batches. Remembers when the reader has gone away.
import Foundation
import LineIO
import Pipeline
import Streams
import Synchronization

/// Hands events to a writer thread that encodes them and writes each batch with one write(2);
/// stops writing once the reader has gone.
///
/// At most ``capacity`` events wait for the writer thread: a producer that finds the queue full
/// waits, so a full or stalled output holds the run back instead of growing its memory. Every
/// wait ends when the output closes, and a write on a full pipe ends when a stop is requested
/// (see `OutputWriter`), so a signal ends a run blocked on its output.
///
/// The lock only decides (`EventHandOffStateMachine`); encoding, writing, waking and the action
/// run when the output closes happen with it released.
final class EventOutput: Sendable {
  /// How output is handed to the writer thread.
  enum Pace: Sendable {
    /// Each event is written as soon as it comes: live output.
    case prompt
    /// Events are written in batches, and whenever the producer calls ``flush()`` (before it
    /// waits for input): a replay of the catalog, whose events all come at once.
    case batched
  }

  /// How many events may wait for the writer thread: with events of a few hundred bytes, a
  /// write of tens of kilobytes, and a bound of a few megabytes even for the largest.
  static let capacity = 512
  /// How many events a replay hands over at once.
  static let batch = 256

  private let writer: OutputWriter
  private let format: CommandLineOptions.OutputFormat
  private let statsLog: Log?
  private let handOff: Mutex<EventHandOffStateMachine<SearchEvent>>
  /// Wakes the writer thread when it sleeps; signalled once per transition out of its sleep.
  private let writerWakeup = DispatchSemaphore(value: 0)
  /// Wakes producers waiting for room; signalled once per waiting producer.
  private let room = DispatchSemaphore(value: 0)
  /// Left when the writer thread exits.
  private let writerDone = DispatchGroup()
  private let closing = Mutex(Closing())
  /// Whether the output closed, stored when it does, for ``isClosed`` to read without a lock:
  /// a replay asks between every two lines.
  private let closed = Atomic(false)

  private struct Closing {
    var failure: Int32?
    var onClosed: (@Sendable () -> Void)?
  }

  /// An output of `format` to `writer`, at `pace`; with `statsLog`, the summary is also logged
  /// there.
  init(writer: OutputWriter, format: CommandLineOptions.OutputFormat, statsLog: Log?, pace: Pace) {
    self.writer = writer
    self.format = format
    self.statsLog = statsLog
    self.handOff = Mutex(EventHandOffStateMachine(capacity: Self.capacity, wakeAt: pace == .prompt ? 1 : Self.batch))
  }

  /// Whether the reader went away (EPIPE): the run should end quietly with status 0.
  var isClosed: Bool { closed.load(ordering: .acquiring) }

  /// The errno of a failed write other than EPIPE, if any: the run ends with status 74.
  var failure: Int32? { closing.withLock { $0.failure } }

  /// Calls `action` once when the reader goes away or writing fails.
  func onClosed(_ action: @escaping @Sendable () -> Void) {
    closing.withLock { $0.onClosed = action }
  }

  /// Hands one event to the writer thread, waiting while the queue is full. Called by the
  /// pipeline, one call at a time (its sink's contract).
  func write(_ event: SearchEvent) {
    if case .summary = event.kind, let statsLog {
      statsLog.stats(PrettyEventFormatter().format(event))
    }
    while true {
      switch handOff.withLock({ $0.enqueue(event) }) {
      case .queued, .drop:
        return
      case .startWriter:
        startWriter()
        return
      case .wakeWriter:
        writerWakeup.signal()
        return
      case .waitForRoom:
        room.wait()  // Signalled when the writer thread takes the queue, or stops.
      }
    }
  }

  /// Has the events handed over so far written without waiting for a batch to fill: called
  /// before the producer idles.
  func flush() {
    if handOff.withLock({ $0.flush() }) { writerWakeup.signal() }
  }

  /// Waits until every event handed over is written, or the output closed; call once no more
  /// events come, before reading ``isClosed`` and ``failure`` for the exit status.
  func finish() {
    switch handOff.withLock({ $0.finish() }) {
    case .done:
      return
    case .waitForWriter(let wake):
      if wake { writerWakeup.signal() }
      writerDone.wait()
    }
  }

  private func startWriter() {
    writerDone.enter()
    let thread = Thread { [self] in
      writeUntilDone()
      writerDone.leave()
    }
    thread.name = "EventOutput"
    thread.start()
  }

  /// The writer thread: takes what is queued, encodes it into one buffer, writes it with one
  /// call, until the producers finish or the output closes.
  private func writeUntilDone() {
    var buffer: [UInt8] = []
    while true {
      switch handOff.withLock({ $0.take() }) {
      case .exit:
        return
      case .sleep:
        writerWakeup.wait()
      case .write(let events, let wakeProducers):
        for _ in 0..<wakeProducers { room.signal() }
        buffer.removeAll(keepingCapacity: true)
        for event in events { encode(event, into: &buffer) }
        do throws(OutputError) {
          try writer.write(buffer)
        } catch {
          // Closed, failed, or stopped while the reader took nothing: no later event is written.
          return close(after: error)
        }
        // A batch that grew large (long results) does not keep its memory for the next.
        if buffer.capacity > 1 << 20 { buffer = [] }
      }
    }
  }

  private func encode(_ event: SearchEvent, into buffer: inout [UInt8]) {
    switch format {
    case .jsonl:
      JSONLinesEncoder().encode(event, into: &buffer)
    case .pretty:
      buffer.append(contentsOf: PrettyEventFormatter().format(event).utf8)
      buffer.append(UInt8(ascii: "\n"))
    }
  }

  /// Records the end of the output, wakes the producers waiting for room, and runs the action
  /// set with ``onClosed(_:)``.
  private func close(after error: OutputError) {
    let blocked = handOff.withLock { $0.close() }
    let action = closing.withLock { closing in
      if case .failed(let errno) = error { closing.failure = errno }
      closed.store(true, ordering: .releasing)
      defer { closing.onClosed = nil }
      return closing.onClosed
    }
    for _ in 0..<blocked { room.signal() }
    action?()
  }
}
