// switchMap and mapLatest in virtual time: children, supersession, stale outputs, finish,
// failure and cancellation.
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct SwitchMapTests {
  struct Boom: Error {}

  /// A wait that ignores cancellation, opened by the test: lets a superseded child try to emit.
  final class Gate: Sendable {
    private let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
    func wait() async {
      await withCheckedContinuation { continuation in waiter.withLock { $0 = continuation } }
    }
    func open() { waiter.withLock { $0.take() }?.resume() }
  }

  typealias Event = SwitchMapEvent<String, String>

  func describe(_ event: Event) -> String {
    switch event {
    case .started(let input): "started \(input)"
    case .output(let output): output
    case .cancelled(let input, by: let newer): "cancelled \(input) by \(newer)"
    }
  }

  @Test func eachElementsChildEmitsAndANewerElementCancelsTheRunningChild() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (input, feed) = AsyncStream.makeStream(of: String.self)
    let seen = Recorder<String>()
    let cancelledChildren = Recorder<String>()
    let task = runner.start {
      let events = input.switchMap { (term: String, emit: SwitchMapEmitter<String>) in
        do {
          try await clock.sleep(for: .milliseconds(100))
          emit("results \(term)")
        } catch {
          cancelledChildren.append(term)
        }
      }
      for try await event in events { seen.append("\(self.describe(event))@\(clock.now.milliseconds)") }
    }
    runner.runUntilIdle()
    feed.yield("a")
    runner.advance(to: .milliseconds(50))
    feed.yield("b")
    runner.advance(to: .milliseconds(150))
    feed.yield("c")
    feed.finish()
    try runner.finish(task)
    #expect(
      seen.values == [
        "started a@0", "cancelled a by b@50", "started b@50", "results b@150", "started c@150", "results c@250",
      ])
    #expect(cancelledChildren.values == ["a"])
    #expect(clock.sleeperCount == 0)
  }

  /// Starts switchMap over a stream the test feeds, each child emitting "results <term>", and
  /// feeds "a": on return the child of "a" waits at `gate`, a wait that ignores cancellation.
  func startWithTheChildOfAAtTheGate(
    _ runner: VirtualTimeRunner, _ gate: Gate, _ seen: Recorder<String>
  ) -> (feed: AsyncStream<String>.Continuation, task: VirtualTask<Void>) {
    let (input, feed) = AsyncStream.makeStream(of: String.self)
    let task = runner.start {
      let events = input.switchMap { (term: String, emit: SwitchMapEmitter<String>) in
        if term == "a" { await gate.wait() }
        emit("results \(term)")
      }
      for try await event in events { seen.append(self.describe(event)) }
    }
    runner.runUntilIdle()
    feed.yield("a")
    runner.runUntilIdle()
    return (feed, task)
  }

  @Test func staleOutputProducedInTheSameInstantAsTheNewerElementIsDropped() throws {
    let runner = VirtualTimeRunner()
    let gate = Gate()
    let seen = Recorder<String>()
    let (feed, task) = startWithTheChildOfAAtTheGate(runner, gate, seen)
    // In one instant: "b" arrives, then the child of "a" finishes its non-cancellable wait.
    feed.yield("b")
    gate.open()
    feed.finish()
    try runner.finish(task)
    #expect(seen.values == ["started a", "cancelled a by b", "started b", "results b"])
  }

  @Test func outputProducedBeforeTheNewerElementArrivesIsKept() throws {
    let runner = VirtualTimeRunner()
    let gate = Gate()
    let seen = Recorder<String>()
    let (feed, task) = startWithTheChildOfAAtTheGate(runner, gate, seen)
    gate.open()
    feed.yield("b")
    feed.finish()
    try runner.finish(task)
    #expect(seen.values == ["started a", "results a", "started b", "results b"])
  }

  @Test func finishesOnlyWhenTheBaseAndTheLastChildHaveFinished() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (input, feed) = AsyncStream.makeStream(of: String.self)
    let task = runner.start { () -> [String] in
      var outputs: [String] = []
      for try await output in input.mapLatest({ (term: String) -> String in
        try? await clock.sleep(for: .milliseconds(401))
        return term.uppercased()
      }) {
        outputs.append("\(output)@\(clock.now.milliseconds)")
      }
      return outputs
    }
    runner.runUntilIdle()
    feed.yield("taylor")
    feed.finish()
    #expect(try runner.finish(task) == ["TAYLOR@401"])
  }

  @Test func baseFailureCancelsTheChildAndIsThrown() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (input, feed) = AsyncThrowingStream.makeStream(of: String.self)
    let childCancelled = Recorder<Bool>()
    let task = runner.start { () -> Bool in
      do {
        for try await _ in input.mapLatest({ (term: String) -> String in
          do { try await clock.sleep(for: .seconds(1)) } catch { childCancelled.append(true) }
          return term
        }) {}
        return false
      } catch {
        return error is Boom
      }
    }
    runner.runUntilIdle()
    feed.yield("a")
    runner.advance(to: .milliseconds(10))
    feed.finish(throwing: Boom())
    #expect(try runner.finish(task))
    #expect(childCancelled.values == [true])
    #expect(runner.now == .milliseconds(10))
  }

  @Test func cancellingTheConsumerCancelsTheRunningChild() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (input, feed) = AsyncStream.makeStream(of: String.self)
    let childCancelled = Recorder<Bool>()
    let task = runner.start {
      for try await _ in input.mapLatest({ (term: String) -> String in
        do { try await clock.sleep(for: .seconds(1)) } catch { childCancelled.append(true) }
        return term
      }) {}
    }
    runner.runUntilIdle()
    feed.yield("a")
    runner.advance(to: .milliseconds(10))
    task.cancel()
    try runner.finish(task)
    #expect(childCancelled.values == [true])
    #expect(clock.sleeperCount == 0)
  }

  @Test func failingTransformsBecomeElementsAndTheStreamGoesOn() throws {
    let runner = VirtualTimeRunner()
    let (input, feed) = AsyncStream.makeStream(of: Int.self)
    let task = runner.start { () -> [String] in
      var seen: [String] = []
      for try await result in input.mapLatest(catching: { (value: Int) throws -> Int in
        if value == 2 { throw Boom() }
        return value * 10
      }) {
        switch result {
        case .success(let value): seen.append("\(value)")
        case .failure(let error): seen.append(error is Boom ? "boom" : "other")
        }
        // Let each transform finish before the next element arrives.
      }
      return seen
    }
    runner.runUntilIdle()
    for value in 1...3 {
      feed.yield(value)
      runner.runUntilIdle()
    }
    feed.finish()
    #expect(try runner.finish(task) == ["10", "boom", "30"])
  }
}
