// AsyncCache's delivered answers (`request(_:load:answer:)`) in virtual time: a hit before the
// call returns, a load joined by awaiting callers and requests alike, cancellation that answers
// at once and cancels the load only when nobody is left, failures never stored, and exactly one
// answer per request.
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(10))) struct AsyncCacheRequestTests {
  typealias Cache = AsyncCache<String, String, ManualClock>
  struct LoadFailed: Error, Equatable {}

  /// What a request was answered with, as text: "a loaded", "cancelled", "failed".
  static func answered(_ answers: Recorder<String>) -> @Sendable (Result<CacheAnswer<String>, any Error>) -> Void {
    return { result in
      switch result {
      case .success(let answer): answers.append("\(answer.value) \(answer.origin)")
      case .failure(let error) where error is CancellationError: answers.append("cancelled")
      case .failure: answers.append("failed")
      }
    }
  }

  /// A load of "a" that takes 100 ms on `clock`, recording its start and a cancelled wait.
  static func slowLoad(_ clock: ManualClock, _ events: Recorder<String>)
    -> @Sendable (CacheLoad) async throws -> (value: String, obtainedAt: ManualClock.Instant)
  {
    return { _ in
      events.append("load")
      do {
        try await clock.sleep(for: .milliseconds(100))
      } catch {
        events.append("load cancelled")
        throw error
      }
      return ("a", clock.now)
    }
  }

  @Test func aHitIsAnsweredBeforeTheCallReturns() throws {
    let runner = VirtualTimeRunner()
    let cache = Cache(capacity: 4, clock: runner.clock)
    try runner.run { _ = try await cache.value(for: "a") { "a" } }
    let answers = Recorder<String>()
    _ = cache.request("a", load: { _ in ("never", runner.clock.now) }, answer: Self.answered(answers))
    #expect(answers.values == ["a cached"])
    #expect(cache.statistics.hits == 1 && cache.statistics.loads == 1)
  }

  @Test func requestsAndAwaitingCallersShareOneLoadEachAnsweredOnce() throws {
    let runner = VirtualTimeRunner()
    let cache = Cache(capacity: 4, clock: runner.clock)
    let events = Recorder<String>()
    let answers = Recorder<String>()
    let first = runner.onRunner {
      cache.request("a", load: Self.slowLoad(runner.clock, events), answer: Self.answered(answers))
    }
    let second = runner.onRunner {
      cache.request("a", load: Self.slowLoad(runner.clock, events), answer: Self.answered(answers))
    }
    let awaiting = runner.start { try await cache.value(for: "a") { "other" }.origin }
    runner.advance(to: .milliseconds(99))
    #expect(answers.values == [])
    runner.advance(to: .milliseconds(100))
    #expect(answers.values == ["a loaded", "a joined"])
    #expect(try awaiting.result?.get() == .joined)
    #expect(events.values == ["load"])
    // Answered already: cancelling now changes nothing.
    first.cancel()
    second.cancel()
    #expect(answers.values == ["a loaded", "a joined"])
    #expect(cache.statistics.loads == 1 && cache.statistics.joins == 2)
    #expect(cache.keysByRecency == ["a"])
  }

  @Test func cancellingOneRequestAnswersItAtOnceAndTheLoadGoesOnForTheOther() throws {
    let runner = VirtualTimeRunner()
    let cache = Cache(capacity: 4, clock: runner.clock)
    let events = Recorder<String>()
    let answers = Recorder<String>()
    let first = runner.onRunner {
      cache.request("a", load: Self.slowLoad(runner.clock, events), answer: Self.answered(answers))
    }
    _ = runner.onRunner {
      cache.request("a", load: Self.slowLoad(runner.clock, events), answer: Self.answered(answers))
    }
    runner.advance(to: .milliseconds(50))
    first.cancel()
    #expect(answers.values == ["cancelled"])
    runner.advance(to: .milliseconds(100))
    #expect(answers.values == ["cancelled", "a joined"])
    #expect(events.values == ["load"])
    #expect(cache.keysByRecency == ["a"])
  }

  @Test func cancellingTheLastRequestCancelsTheLoadAndStoresNothing() throws {
    let runner = VirtualTimeRunner()
    let cache = Cache(capacity: 4, clock: runner.clock)
    let events = Recorder<String>()
    let answers = Recorder<String>()
    let request = runner.onRunner {
      cache.request("a", load: Self.slowLoad(runner.clock, events), answer: Self.answered(answers))
    }
    runner.advance(to: .milliseconds(50))
    request.cancel()
    request.cancel()
    runner.runUntilIdle()
    #expect(answers.values == ["cancelled"])
    #expect(events.values == ["load", "load cancelled"])
    #expect(cache.count == 0)
    // The next request loads again.
    _ = runner.onRunner {
      cache.request("a", load: Self.slowLoad(runner.clock, events), answer: Self.answered(answers))
    }
    runner.advance(to: .milliseconds(150))
    #expect(answers.values == ["cancelled", "a loaded"])
  }

  @Test func aFailedLoadAnswersEveryRequestWithItsErrorAndIsNotStored() throws {
    let runner = VirtualTimeRunner()
    let cache = Cache(capacity: 4, clock: runner.clock)
    let answers = Recorder<String>()
    let failing: @Sendable (CacheLoad) async throws -> (value: String, obtainedAt: ManualClock.Instant) = { _ in
      try await runner.clock.sleep(for: .milliseconds(10))
      throw LoadFailed()
    }
    _ = runner.onRunner { cache.request("a", load: failing, answer: Self.answered(answers)) }
    _ = runner.onRunner { cache.request("a", load: failing, answer: Self.answered(answers)) }
    runner.advance(to: .milliseconds(10))
    #expect(answers.values == ["failed", "failed"])
    #expect(cache.count == 0)
  }

  @Test func aLoadCanStopItselfThroughItsHandleAndEveryRequestHearsWhatItThrew() throws {
    let runner = VirtualTimeRunner()
    let cache = Cache(capacity: 4, clock: runner.clock)
    let events = Recorder<String>()
    let answers = Recorder<String>()
    // A time limit inside the load: at 50 ms it cancels the load's own task.
    let limited: @Sendable (CacheLoad) async throws -> (value: String, obtainedAt: ManualClock.Instant) = { handle in
      let wake = ClockWake.schedule(on: runner.clock, at: runner.clock.now.advanced(by: .milliseconds(50))) {
        handle.cancel()
      }
      defer { wake.cancel() }
      return try await Self.slowLoad(runner.clock, events)(handle)
    }
    _ = runner.onRunner { cache.request("a", load: limited, answer: Self.answered(answers)) }
    _ = runner.onRunner { cache.request("a", load: limited, answer: Self.answered(answers)) }
    runner.advance(to: .milliseconds(49))
    #expect(answers.values == [])
    runner.advance(to: .milliseconds(50))
    #expect(events.values == ["load", "load cancelled"])
    #expect(answers.values == ["cancelled", "cancelled"])
    #expect(cache.count == 0)
  }

  @Test func aCancelAskedBeforeTheTaskIsAttachedIsAppliedOnAttach() async {
    let handle = CacheLoad()
    handle.cancel()
    let task = Task { while !Task.isCancelled { await Task.yield() } }
    handle.attach(task)
    await task.value
    #expect(task.isCancelled)
  }
}
