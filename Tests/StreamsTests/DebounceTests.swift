// debounce in virtual time: exact deadlines, replacement, zero periods, finish, failure, cancel.
import Streams
import StreamsTesting
import Testing

@Suite struct DebounceTests {
  struct Boom: Error, Equatable {}

  /// Drives `debounce` on a runner: the test feeds elements and reads what came out, with when.
  final class Harness: Sendable {
    let runner = VirtualTimeRunner()
    let input: AsyncStream<String>.Continuation
    let output = Recorder<String>()
    let task: VirtualTask<Void>

    init(quietPeriod: @escaping @Sendable (String) -> Duration = { _ in .milliseconds(300) }) {
      let (stream, continuation) = AsyncStream.makeStream(of: String.self)
      input = continuation
      let clock = runner.clock
      let output = output
      task = runner.start {
        for try await text in stream.debounce(clock: clock, quietPeriod: quietPeriod) {
          output.append("\(text)@\(clock.now.milliseconds)")
        }
      }
      runner.runUntilIdle()
    }

    func type(_ text: String, at milliseconds: Int64) {
      runner.advance(to: .milliseconds(milliseconds))
      input.yield(text)
      runner.runUntilIdle()
    }
  }

  @Test func emitsNothingBeforeTheDeadlineAndTheElementExactlyAtIt() throws {
    let harness = Harness()
    harness.type("tay", at: 0)
    harness.runner.advance(to: .milliseconds(299))
    #expect(harness.output.values.isEmpty)
    harness.runner.advance(to: .milliseconds(300))
    #expect(harness.output.values == ["tay@300"])
    harness.input.finish()
    try harness.runner.finish(harness.task)
    #expect(harness.runner.clock.sleeperCount == 0)
  }

  @Test func newElementCancelsThePendingWait() throws {
    let harness = Harness()
    harness.type("t", at: 0)
    harness.type("ta", at: 299)
    harness.runner.advance(to: .milliseconds(300))
    #expect(harness.output.values.isEmpty)
    harness.runner.advance(to: .milliseconds(598))
    #expect(harness.output.values.isEmpty)
    harness.runner.advance(to: .milliseconds(599))
    #expect(harness.output.values == ["ta@599"])
    harness.input.finish()
    try harness.runner.finish(harness.task)
  }

  @Test func aDueDeadlineFiresBeforeAnElementArrivingAtTheSameInstant() throws {
    let harness = Harness()
    harness.type("t", at: 0)
    harness.type("ta", at: 300)
    #expect(harness.output.values == ["t@300"])
    harness.input.finish()
    try harness.runner.finish(harness.task)
    #expect(harness.output.values == ["t@300", "ta@300"])
  }

  @Test func zeroQuietPeriodEmitsAtOnceAndDropsThePendingElement() throws {
    let harness = Harness { $0.isEmpty ? .zero : .milliseconds(300) }
    harness.type("tay", at: 0)
    harness.type("", at: 100)
    #expect(harness.output.values == ["@100"])
    harness.runner.advance(to: .milliseconds(1_000))
    #expect(harness.output.values == ["@100"])
    harness.input.finish()
    try harness.runner.finish(harness.task)
  }

  @Test func shorterQuietPeriodAfterALongerOneIsHonoured() throws {
    let harness = Harness { .milliseconds($0.count == 1 ? 500 : 100) }
    harness.type("a", at: 0)
    harness.type("ab", at: 10)
    harness.runner.advance(to: .milliseconds(110))
    #expect(harness.output.values == ["ab@110"])
    harness.input.finish()
    try harness.runner.finish(harness.task)
    #expect(harness.runner.now == .milliseconds(110))
  }

  @Test func finishEmitsThePendingElementAtOnceThenFinishes() throws {
    let harness = Harness()
    harness.type("taylor", at: 0)
    harness.runner.advance(to: .milliseconds(50))
    harness.input.finish()
    try harness.runner.finish(harness.task)
    #expect(harness.output.values == ["taylor@50"])
    #expect(harness.runner.now == .milliseconds(50))
  }

  @Test func failureDropsThePendingElementAndThrows() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (stream, input) = AsyncThrowingStream.makeStream(of: String.self)
    let output = Recorder<String>()
    let task = runner.start { () -> Bool in
      do {
        for try await text in stream.debounce(for: .milliseconds(300), clock: clock) { output.append(text) }
        return false
      } catch {
        return error is Boom
      }
    }
    runner.runUntilIdle()
    input.yield("a")
    runner.advance(to: .milliseconds(100))
    input.finish(throwing: Boom())
    #expect(try runner.finish(task))
    #expect(output.values.isEmpty)
    #expect(runner.now == .milliseconds(100))
  }

  @Test func cancellingTheConsumerStopsOutputAndCancelsTheBase() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (stream, input) = AsyncStream.makeStream(of: String.self)
    let terminated = Recorder<Bool>()
    input.onTermination = { _ in terminated.append(true) }
    let output = Recorder<String>()
    let task = runner.start {
      for try await text in stream.debounce(for: .milliseconds(300), clock: clock) { output.append(text) }
    }
    runner.runUntilIdle()
    input.yield("a")
    runner.advance(to: .milliseconds(100))
    task.cancel()
    try runner.finish(task)
    #expect(output.values.isEmpty)
    #expect(terminated.values == [true])
    #expect(clock.sleeperCount == 0)
  }

  @Test func droppingTheIteratorCancelsTheBase() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (stream, input) = AsyncStream.makeStream(of: String.self)
    let terminated = Recorder<Bool>()
    input.onTermination = { _ in terminated.append(true) }
    let task = runner.start { () -> String? in
      for try await text in stream.debounce(for: .milliseconds(300), clock: clock) { return text }
      return nil
    }
    runner.runUntilIdle()
    input.yield("first")
    #expect(try runner.finish(task) == "first")
    runner.runUntilIdle()
    #expect(terminated.values == [true])
  }
}
