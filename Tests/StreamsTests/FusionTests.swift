// swift-format-ignore-file
// It holds copies of doc examples, word for word, so the formatter must not reflow it.
// Operator fusion: a pushed chain (AsyncFeed → debounce → removeDuplicates → switchMap) gives the
// same elements at the same instants as the same chain pulled, and costs no executor job per
// element; its pieces (the feed, ClockWake, ManualClock's scheduled calls, the cache's immediate
// answers) each behave as documented, their doc examples included.
import Streams
import StreamsTesting
import Synchronization
import Testing

/// One thing the chain under test did, with its instant: "started tay@300", "tay@700".
private func describe(_ event: SwitchMapEvent<String, String>, at instant: Int64) -> String {
  switch event {
  case .started(let term): "started \(term)@\(instant)"
  case .output(let output): "\(output)@\(instant)"
  case .cancelled(let term, by: let newer): "cancelled \(term) by \(newer)@\(instant)"
  }
}

/// The chain of the pipeline in miniature: an empty text passes at once, letters wait 300 ms,
/// repeats are dropped, and a "search" answers at once for a short term and after 400 ms else.
private func chain<Base: AsyncSequence & Sendable>(_ base: Base, clock: ManualClock)
  -> AsyncSwitchMapSequence<AsyncRemoveDuplicatesSequence<AsyncDebounceSequence<Base, ManualClock>, String>, String>
where Base.Element == String {
  base
    .debounce(clock: clock) { $0.isEmpty ? .zero : .milliseconds(300) }
    .removeDuplicates(by: { $0.lowercased() })
    .switchMap(starting: { term, emit in
      if term.count < 3 {
        emit("at once \(term)")
        return .finished
      }
      return .task {
        guard (try? await clock.sleep(for: .milliseconds(400))) != nil else { return }
        emit("loaded \(term)")
      }
    })
}

/// A seeded typing session: (instant, text) pairs, the same for every run of the test.
private func typing(seed: UInt64, count: Int) -> [(Int64, String)] {
  var state = seed
  func next(_ bound: UInt64) -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return (state >> 33) % bound
  }
  let words = ["ta", "tay", "Tay", "taylor", "", "zim", "zimmer", "a"]
  var instant: Int64 = 0
  return (0..<count).map { _ in
    instant += Int64(next(3) == 0 ? 350 + next(500) : 20 + next(250))
    return (instant, words[Int(next(UInt64(words.count)))])
  }
}

@Suite struct FusionTests {
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func aPushedChainGivesWhatThePulledChainGivesAtTheSameInstants(seed: UInt64) throws {
    let keys = typing(seed: seed, count: 300)
    // Pulled: a task iterates the chain over an AsyncStream.
    let pulledRunner = VirtualTimeRunner()
    let pulled = Recorder<String>()
    let (stream, input) = AsyncStream.makeStream(of: String.self)
    let events = chain(stream, clock: pulledRunner.clock)
    let task = pulledRunner.start {
      for try await event in events { pulled.append(describe(event, at: pulledRunner.now.milliseconds)) }
    }
    for (instant, text) in keys {
      pulledRunner.advance(to: .milliseconds(instant))
      input.yield(text)
      pulledRunner.runUntilIdle()
    }
    input.finish()
    try pulledRunner.finish(task)

    // Pushed: the same chain subscribed to a feed that this thread feeds.
    let pushedRunner = VirtualTimeRunner()
    let pushed = Recorder<String>()
    let feed = AsyncFeed<String>()
    let ended = Recorder<String>()
    let subscription = pushedRunner.onRunner {
      chain(feed, clock: pushedRunner.clock).subscribe(PushReceiver(
        element: { pushed.append(describe($0, at: pushedRunner.now.milliseconds)) },
        end: { error in ended.append(error == nil ? "finished" : "failed") }))
    }
    for (instant, text) in keys {
      pushedRunner.advance(to: .milliseconds(instant))
      pushedRunner.onRunner { feed.yield(text) }
      pushedRunner.runUntilIdle()
    }
    pushedRunner.onRunner { feed.finish() }
    pushedRunner.advance(by: .seconds(10))

    #expect(pushed.values == pulled.values)
    #expect(pulled.values.contains { $0.hasPrefix("loaded") } && pulled.values.contains { $0.hasPrefix("cancelled") })
    #expect(ended.values == ["finished"])
    subscription.cancel()
  }

  @Test func aPushedChainCostsNoJobForElementsAnsweredAtOnce() {
    let runner = VirtualTimeRunner()
    let feed = AsyncFeed<String>()
    let outputs = Recorder<String>()
    let subscription = runner.onRunner {
      chain(feed, clock: runner.clock).subscribe(PushReceiver(
        element: { if case .output(let output) = $0 { outputs.append(output) } }, end: { _ in }))
    }
    for step in 0..<1_000 {
      runner.advance(to: .milliseconds(Int64(step) * 400))
      runner.onRunner { feed.yield(step.isMultiple(of: 2) ? "ab" : "xy") }
    }
    runner.advance(by: .seconds(1))
    // 1,000 debounced terms, every one answered in its synchronous start: no task, no job.
    #expect(outputs.values.count == 1_000)
    #expect(runner.jobCount == 0)
    subscription.cancel()
  }

  @Test func cancellingAPushedChainCancelsItsTimerAndItsChild() {
    let runner = VirtualTimeRunner()
    let feed = AsyncFeed<String>()
    let seen = Recorder<String>()
    let subscription = runner.onRunner {
      chain(feed, clock: runner.clock).subscribe(PushReceiver(
        element: { seen.append(describe($0, at: runner.now.milliseconds)) }, end: { _ in seen.append("end") }))
    }
    runner.onRunner { feed.yield("taylor") }
    runner.advance(to: .milliseconds(300))   // the search for "taylor" is in flight
    runner.onRunner { feed.yield("zimmer") }  // its debounce timer is pending
    subscription.cancel()
    runner.advance(by: .seconds(5))
    #expect(seen.values == ["started taylor@300"])
    #expect(runner.clock.sleeperCount == 0)
  }

  @Test func aFeedDeliversWhatWasFedBeforeTheSubscriptionThenTheRestInOrder() {
    let feed = AsyncFeed<Int>()
    feed.yield(1)
    feed.yield(2)
    let seen = Recorder<Int>()
    let subscription = feed.subscribe(PushReceiver(
      element: { value in
        seen.append(value)
        // Fed by the receiver itself: queued, and delivered after this call returns.
        if value == 3 { feed.yield(4) }
      },
      end: { _ in seen.append(-1) }))
    #expect(seen.values == [1, 2])
    feed.yield(3)
    #expect(seen.values == [1, 2, 3, 4])
    feed.finish()
    feed.yield(5)
    #expect(seen.values == [1, 2, 3, 4, -1])
    subscription.cancel()
  }

  @Test func aCancelledFeedSubscriptionHearsNothingMore() {
    let feed = AsyncFeed<Int>()
    let seen = Recorder<Int>()
    let subscription = feed.subscribe(PushReceiver(element: { seen.append($0) }, end: { _ in seen.append(-1) }))
    feed.yield(1)
    subscription.cancel()
    feed.yield(2)
    feed.finish()
    #expect(seen.values == [1])
  }

  @Test func aFeedIteratedByATaskEndsWhenTheTaskIsCancelled() throws {
    let runner = VirtualTimeRunner()
    let feed = AsyncFeed<Int>()
    let seen = Recorder<Int>()
    let task = runner.start { for await value in feed { seen.append(value) } }
    feed.yield(1)
    runner.runUntilIdle()
    task.cancel()
    feed.yield(2)
    try runner.finish(task)
    #expect(seen.values == [1])
  }

  @Test func aScheduledCallRunsAtItsDeadlineAndNotBeforeAndCountsAsASleeper() {
    let clock = ManualClock()
    let fired = Recorder<Int64>()
    let wake = ClockWake.schedule(on: clock, at: .milliseconds(500)) { fired.append(clock.now.milliseconds) }
    #expect(clock.sleeperCount == 1)
    #expect(clock.nextDeadline == .milliseconds(500))
    clock.advance(to: .milliseconds(499))
    #expect(fired.values.isEmpty)
    clock.advance(to: .milliseconds(500))
    #expect(fired.values == [500])
    #expect(clock.sleeperCount == 0)
    wake.cancel()
    clock.advance(by: .seconds(1))
    #expect(fired.values == [500])
  }

  @Test func aCancelledCallNeverRunsAndAPastDeadlineRunsAtOnce() {
    let clock = ManualClock(now: .milliseconds(100))
    let fired = Recorder<String>()
    let cancelled = ClockWake.schedule(on: clock, at: .milliseconds(200)) { fired.append("cancelled") }
    cancelled.cancel()
    #expect(clock.sleeperCount == 0)
    _ = ClockWake.schedule(on: clock, at: .milliseconds(100)) { fired.append("past") }
    #expect(fired.values == ["past"])
    clock.advance(by: .seconds(1))
    #expect(fired.values == ["past"])
  }

  @Test func scheduledCallsAndSleepersDueTogetherWakeInRegistrationOrder() throws {
    let runner = VirtualTimeRunner()
    let order = Recorder<String>()
    _ = ClockWake.schedule(on: runner.clock, at: .milliseconds(100)) { order.append("first call") }
    let sleeper = runner.start {
      try await runner.clock.sleep(until: .milliseconds(100))
      order.append("sleeper")
    }
    runner.runUntilIdle()
    _ = ClockWake.schedule(on: runner.clock, at: .milliseconds(100)) { order.append("second call") }
    runner.advance(to: .milliseconds(100))
    try runner.finish(sleeper)
    // One at a time, in registration order: the sleeper's task runs before the call set after it.
    #expect(order.values == ["first call", "sleeper", "second call"])
  }

  @Test func theCacheAnswersAHitOrAnImmediateLoadWithoutSuspending() {
    let clock = ManualClock()
    let cache = AsyncCache<String, Int, ManualClock>(capacity: 4, timeToLive: .seconds(1), clock: clock)
    let loads = Recorder<String>()
    #expect(cache.immediateValue(for: "a", load: nil) == nil)
    let first = cache.immediateValue(for: "a") {
      loads.append("a")
      return (1, nil)
    }
    #expect(first?.origin == .loaded && first?.value == 1)
    let again = cache.immediateValue(for: "a") { (2, nil) }
    #expect(again?.origin == .cached && again?.value == 1)
    clock.advance(by: .seconds(1))
    // Expired: loaded again, and dated by the load's own instant.
    let reloaded = cache.immediateValue(for: "a") { (3, clock.now.advanced(by: .milliseconds(-999))) }
    #expect(reloaded?.origin == .loaded && reloaded?.value == 3)
    clock.advance(by: .milliseconds(1))
    #expect(cache.immediateValue(for: "a", load: nil) == nil)
    #expect(loads.values == ["a"])
    #expect(cache.statistics.loads == 2 && cache.statistics.hits == 1)
  }

  @Test func theCacheAnswersNothingAtOnceWhileALoadIsInFlight() throws {
    let runner = VirtualTimeRunner()
    let cache = AsyncCache<String, Int, ManualClock>(capacity: 4, clock: runner.clock)
    let loading = runner.start {
      try await cache.value(for: "a") {
        try await runner.clock.sleep(for: .milliseconds(100))
        return 1
      }
    }
    runner.runUntilIdle()
    #expect(cache.immediateValue(for: "a") { (2, nil) } == nil)
    #expect(try runner.finish(loading).value == 1)
    #expect(cache.immediateValue(for: "a", load: nil)?.value == 1)
  }

  // The examples of the doc comments, as written there.

  @Test func pushableAsyncSequenceDocExample() {
    let feed = AsyncFeed<String>()
    let seen = Recorder<String>()                       // StreamsTesting
    let subscription = feed.removeDuplicates().subscribe(PushReceiver(
      element: { seen.append($0) }, end: { _ in seen.append("end") }))
    feed.yield("tay"); feed.yield("tay"); feed.yield("taylor")   // seen.values == ["tay", "taylor"]
    #expect(seen.values == ["tay", "taylor"])
    feed.finish()                                        // seen.values == ["tay", "taylor", "end"]
    #expect(seen.values == ["tay", "taylor", "end"])
    subscription.cancel()                                // nothing more would be delivered
  }

  @Test func asyncFeedDocExample() async {
    let feed = AsyncFeed<String>()
    feed.yield("t"); feed.yield("ta")
    feed.finish()
    var texts: [String] = []
    for await text in feed { texts.append(text) }   // texts == ["t", "ta"]
    #expect(texts == ["t", "ta"])
  }

  @Test func clockWakeDocExample() {
    let clock = ManualClock()
    let fired = Recorder<Int64>()                    // StreamsTesting
    let wake = ClockWake.schedule(on: clock, at: clock.now.advanced(by: .milliseconds(500))) {
      fired.append(clock.now.milliseconds)
    }
    clock.advance(by: .milliseconds(499))            // fired.values == []
    #expect(fired.values.isEmpty)
    clock.advance(by: .milliseconds(1))              // fired.values == [500]
    #expect(fired.values == [500])
    wake.cancel()                                    // too late: it has run, nothing happens
  }

  @Test func switchMapStartingDocExample() throws {
    let runner = VirtualTimeRunner()
    let (terms, typing) = AsyncStream.makeStream(of: String.self)
    let known = ["tay": "Taylor Swift"]
    let answered = runner.start {
      var shown: [String] = []
      for try await event in terms.switchMap(starting: { (term, emit: SwitchMapEmitter<String>) in
        if let hit = known[term] {
          emit(hit)                     // answered at once: no task
          return .finished
        }
        return .task { emit("fetched \(term)") }
      }) {
        if case .output(let output) = event { shown.append(output) }
      }
      return shown
    }
    typing.yield("tay"); typing.yield("bey"); typing.finish()
    let shown = try runner.finish(answered)   // shown == ["Taylor Swift", "fetched bey"]
    #expect(shown == ["Taylor Swift", "fetched bey"])
  }

  @Test func streamsGuideFusionExample() {
    let clock = ManualClock()
    let feed = AsyncFeed<String>()
    let shown = Recorder<String>()                   // StreamsTesting
    let subscription = feed
      .debounce(for: .milliseconds(300), clock: clock)
      .removeDuplicates()
      .subscribe(PushReceiver(element: { shown.append($0) }, end: { _ in shown.append("end") }))
    feed.yield("ta"); feed.yield("tay")
    clock.advance(by: .milliseconds(300))            // shown.values == ["tay"]
    #expect(shown.values == ["tay"])
    feed.finish()                                    // shown.values == ["tay", "end"]
    #expect(shown.values == ["tay", "end"])
    subscription.cancel()
  }
}
