// Pulling an operator with `for await` goes through one adapter for all of them: a base that
// cannot push is iterated by the consumer's own task when no stage between can emit by itself,
// else by a pump that waits while the consumer has not taken what was emitted.
import Streams
import StreamsTesting
import Testing

@Suite struct PulledOperatorTests {
  /// The current task's identity, to tell which task runs a piece of code.
  static var currentTask: Int? { withUnsafeCurrentTask { $0?.hashValue } }

  /// Elements `0..<count`, recording which task asked for each.
  struct Recorded: AsyncSequence, Sendable {
    let count: Int
    let askedBy: Recorder<Int?>

    func makeAsyncIterator() -> Iterator { Iterator(recorded: self) }

    struct Iterator: AsyncIteratorProtocol {
      let recorded: Recorded
      var next = 0

      mutating func next() async -> Int? {
        recorded.askedBy.append(PulledOperatorTests.currentTask)
        guard next < recorded.count else { return nil }
        defer { next += 1 }
        return next / 2
      }
    }
  }

  @Test func removeDuplicatesPulledIteratesItsBaseInTheConsumersOwnTask() async throws {
    let askedBy = Recorder<Int?>()
    let consumer = Self.currentTask
    var seen: [Int] = []
    for try await value in Recorded(count: 6, askedBy: askedBy).removeDuplicates() { seen.append(value) }
    #expect(seen == [0, 1, 2])
    #expect(askedBy.values.count == 7)
    #expect(askedBy.values.allSatisfy { $0 == consumer })
  }

  @Test func debouncePulledHoldsItsBaseWhileTheConsumerHasNotTakenAnElement() throws {
    let runner = VirtualTimeRunner()
    let produced = Recorder<Int>()
    let (gate, open) = AsyncStream.makeStream(of: Void.self)
    let task = runner.start { () -> Int in
      let fast = AsyncStream<Int> { continuation in
        for value in 0..<1_000 { continuation.yield(value) }
        continuation.finish()
      }
      let counted = fast.map { value -> Int in
        produced.append(value)
        return value
      }
      // A zero quiet period emits every element at once.
      var iterator = counted.debounce(clock: runner.clock) { _ in .zero }.makeAsyncIterator()
      var gateIterator = gate.makeAsyncIterator()
      _ = try await iterator.next()
      await gateIterator.next()
      var count = 1
      while try await iterator.next() != nil { count += 1 }
      return count
    }
    runner.runUntilIdle()
    // The consumer took one element and waits: the base is at most one element ahead of it.
    #expect(produced.values.count <= 3)
    open.yield()
    #expect(try runner.finish(task) == 1_000)
  }

  @Test func aChainPulledOverAStreamGivesTheChainsElementsInOrder() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (texts, typing) = AsyncStream.makeStream(of: String.self)
    let task = runner.start { () -> [String] in
      var seen: [String] = []
      let chain = texts.debounce(for: .milliseconds(300), clock: clock).removeDuplicates().switchMap(starting: {
        (term: String, emit: SwitchMapEmitter<String>) in
        emit("found \(term)")
        return .finished
      })
      for try await event in chain {
        switch event {
        case .started(let term): seen.append("started \(term)@\(clock.now.milliseconds)")
        case .output(let output): seen.append("\(output)@\(clock.now.milliseconds)")
        case .cancelled(let term, _): seen.append("cancelled \(term)")
        }
      }
      return seen
    }
    for (instant, text) in [(0, "ta"), (100, "tay"), (500, "tay"), (900, "zim")] as [(Int64, String)] {
      runner.advance(to: .milliseconds(instant))
      typing.yield(text)
    }
    typing.finish()
    #expect(
      try runner.finish(task) == ["started tay@400", "found tay@400", "started zim@900", "found zim@900"])
  }
}
