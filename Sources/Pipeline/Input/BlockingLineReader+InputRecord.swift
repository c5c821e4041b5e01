// Replay reads its recording on the thread that drives it; each line is parsed straight from the
// reader's bytes, so a JSON line never becomes a `String` of its own.
import Streams

extension BlockingLineReader {
  /// The next line read as an ``InputRecord``, parsed from its bytes; nil at the end of the input.
  ///
  /// - Throws: what ``BlockingLineReader/next()`` throws.
  package mutating func nextRecord() throws(LineInputError) -> InputRecord? {
    var record: InputRecord?
    guard try next({ record = InputRecord($0) }) else { return nil }
    return record
  }
}
