// merge in virtual time: interleaving by time, any number of bases, finish, failure, cancel.
import Streams
import StreamsTesting
import Testing

@Suite struct MergeTests {
  struct Boom: Error {}

  @Test func interleavesElementsOfManySequencesByTime() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let elements = try runner.run { () -> [String] in
      let bases = (1...5).map { index in
        ticks("s\(index)", count: 3, every: .milliseconds(Int64(index * 10)), clock: clock)
      }
      var seen: [String] = []
      for try await element in merge(bases) { seen.append("\(element)@\(clock.now.milliseconds)") }
      return seen
    }
    #expect(elements.count == 15)
    let times = elements.compactMap { Int($0.split(separator: "@")[1]) }
    #expect(times == times.sorted())
    for index in 1...5 {
      let ownOrder = elements.filter { $0.hasPrefix("s\(index)-") }.map { $0.split(separator: "@")[0] }
      #expect(ownOrder == ["s\(index)-0", "s\(index)-1", "s\(index)-2"])
    }
    #expect(runner.now == .milliseconds(150))
  }

  @Test func finishesAtOnceWithNoBases() throws {
    let runner = VirtualTimeRunner()
    let count = try runner.run { () -> Int in
      var count = 0
      for try await _ in merge([AsyncStream<Int>]()) { count += 1 }
      return count
    }
    #expect(count == 0)
  }

  @Test func aFailingBaseCancelsTheOthersAndIsThrown() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let outcome = try runner.run { () -> String in
      let failing = ticks("bad", count: 1, every: .milliseconds(5), clock: clock, failsAtEnd: true)
      let slow = ticks("slow", count: 100, every: .seconds(1), clock: clock)
      do {
        for try await _ in merge(failing, slow) {}
        return "finished"
      } catch {
        return error is Boom ? "boom@\(clock.now.milliseconds)" : "other"
      }
    }
    #expect(outcome == "boom@5")
    #expect(runner.clock.sleeperCount == 0)
  }

  @Test func cancellingTheConsumerCancelsEveryBase() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let task = runner.start {
      let bases = (0..<3).map { ticks("s\($0)", count: 100, every: .seconds(1), clock: clock) }
      for try await _ in merge(bases) {}
    }
    runner.advance(to: .milliseconds(2_500))
    task.cancel()
    try runner.finish(task)
    #expect(clock.sleeperCount == 0)
    #expect(runner.now == .milliseconds(2_500))
  }

  @Test func aFastBaseWaitsForASlowConsumer() throws {
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
      var iterator = merge(counted).makeAsyncIterator()
      var gateIterator = gate.makeAsyncIterator()
      _ = try await iterator.next()
      await gateIterator.next()
      var count = 1
      while try await iterator.next() != nil { count += 1 }
      return count
    }
    runner.runUntilIdle()
    // The consumer took one element and waits: the base may be at most one element ahead.
    #expect(produced.values.count <= 3)
    open.yield()
    #expect(try runner.finish(task) == 1_000)
  }
}

/// `count` elements named `name-i`, one every `step` on `clock`, then finish (or fail).
func ticks(
  _ name: String, count: Int, every step: Duration, clock: ManualClock, failsAtEnd: Bool = false
) -> Ticks {
  Ticks(name: name, count: count, step: step, clock: clock, failsAtEnd: failsAtEnd)
}

struct Ticks: AsyncSequence, Sendable {
  let name: String
  let count: Int
  let step: Duration
  let clock: ManualClock
  let failsAtEnd: Bool

  func makeAsyncIterator() -> Iterator { Iterator(ticks: self) }

  struct Iterator: AsyncIteratorProtocol {
    let ticks: Ticks
    var index = 0

    mutating func next() async throws -> String? {
      if index == ticks.count {
        if ticks.failsAtEnd { throw MergeTests.Boom() }
        return nil
      }
      try await ticks.clock.sleep(for: ticks.step)
      defer { index += 1 }
      return "\(ticks.name)-\(index)"
    }
  }
}
