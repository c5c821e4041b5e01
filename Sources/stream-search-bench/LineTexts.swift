// The element source of the "lines" rows: the text of each line a LineReader reads, as a String.
//
// A sequence of its own rather than the standard library's `reader.map(\.text)`: the standard
// library is built with library evolution, so inside generic code (every operator's iterator or
// pump) a call to `AsyncMapSequence.Iterator.next` cannot be specialised or even devirtualised.
// It goes through the protocol witness table into the unspecialised map, which calls LineReader
// through its witness and hops executors around the transform closure, about 500 ns per element
// on this machine, more than removeDuplicates itself. The baseline, iterating the map directly,
// got it inlined for free, so the rows compared the operators against a cheaper source than the
// one they were given. This type lives in the benchmark's own module, so it is specialised alike
// everywhere and every row pays the same for the source.
import LineIO
import Streams

/// The text of each line of a ``LineReader`` (an empty string for a line that has none).
struct LineTexts: AsyncSequence, Sendable {
  typealias Element = String
  typealias Failure = LineInputError

  let reader: LineReader

  func makeAsyncIterator() -> Iterator { Iterator(lines: reader.makeAsyncIterator()) }

  /// Reads the lines and hands out their texts.
  struct Iterator: AsyncIteratorProtocol {
    var lines: LineReader.AsyncIterator

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(LineInputError) -> String? {
      guard let line = try await lines.next(isolation: actor) else { return nil }
      return line.text ?? ""
    }

    mutating func next() async throws(LineInputError) -> String? { try await next(isolation: nil) }
  }
}
