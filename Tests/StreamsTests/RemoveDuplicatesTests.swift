// removeDuplicates: adjacent duplicates by key are dropped; finish and failure pass through.
import Streams
import Testing

@Suite struct RemoveDuplicatesTests {
  struct Boom: Error {}

  @Test func dropsOnlyAdjacentDuplicatesByKey() async throws {
    let input = ["Taylor", "taylor", "", "TAYLOR", "tay", "tay"].async
    var seen: [String] = []
    for await text in input.removeDuplicates(by: { $0.lowercased() }) { seen.append(text) }
    #expect(seen == ["Taylor", "", "TAYLOR", "tay"])
  }

  @Test func passesFailureThrough() async {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
    continuation.yield(1)
    continuation.yield(1)
    continuation.yield(2)
    continuation.finish(throwing: Boom())
    var seen: [Int] = []
    await #expect(throws: Boom.self) {
      for try await value in stream.removeDuplicates() { seen.append(value) }
    }
    #expect(seen == [1, 2])
  }
}

extension Array where Element: Sendable {
  /// The array as an AsyncStream that finishes after the last element.
  var async: AsyncStream<Element> {
    AsyncStream { continuation in
      for element in self { continuation.yield(element) }
      continuation.finish()
    }
  }
}
