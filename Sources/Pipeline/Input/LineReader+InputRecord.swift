// Replay reads its recording on the reader thread: each line is parsed there, straight from the
// reader's bytes (a JSON line never becomes a `String` of its own), and the thread that drives
// the replay takes the records in batches.
import LineIO
import Streams

extension LineReader {
  /// An iteration of this reader's lines as ``InputRecord``s, parsed on the reader thread, for a
  /// thread that may block.
  ///
  /// - Throws: what `makeBlockingBatches(appendElement:)` throws.
  package func makeRecordReader() throws(LineInputError) -> InputRecordReader {
    InputRecordReader(batches: try makeBlockingBatches { line, batch in batch.append(InputRecord(line)) })
  }
}

/// The records of one iteration of a `LineReader`, for a thread that may block: parsed on the
/// reader's thread, taken here a batch at a time.
///
/// - **Element:** each line's ``InputRecord``, in order, bad lines included.
/// - **Finish:** ``next(beforeWaiting:)`` returns nil at the end of the input, and after.
/// - **Failure:** ``next(beforeWaiting:)`` throws the `LineInputError` that ended reading, after
///   the records read before it.
/// - **Cancellation:** ``cancel`` (from any thread) ends the iteration: a ``next(beforeWaiting:)``
///   blocked on a stalled input returns nil at once. Dropping the reader stops its thread.
package struct InputRecordReader: ~Copyable {
  private let batches: LineReader.BlockingBatches<InputRecord>
  private var batch: [InputRecord] = []
  private var index = 0

  init(batches: consuming LineReader.BlockingBatches<InputRecord>) { self.batches = batches }

  /// Ends the iteration from any thread; see the type's Cancellation.
  package var cancel: @Sendable () -> Void { batches.cancel }

  /// The next record, blocking until the reader thread has one; when none is ready,
  /// `beforeWaiting` runs before the wait (this thread is about to idle).
  package mutating func next(beforeWaiting: () -> Void = {}) throws(LineInputError) -> InputRecord? {
    if index < batch.count {
      defer { index += 1 }
      return batch[index]
    }
    batch = []
    index = 0
    guard let next = try batches.next(beforeWaiting: beforeWaiting), let first = next.first else { return nil }
    batch = next
    index = 1
    return first
  }
}
