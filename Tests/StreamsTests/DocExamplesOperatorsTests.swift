// swift-format-ignore-file
// The examples below are copies of the docs, word for word, so the formatter must not reflow them.
// The doc examples of the operators, pushed chains, feeds, ClockWake, the rate limiter, retry,
// timeout, the cache and the line readers, copied word for word from their doc comments and
// run (see DocExamplesTests).
import Foundation
import LineIO
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct DocExamplesOperatorsTests {
  @Test func rateLimiterBeforeEachRequest() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock                // ContinuousClock() in production
    let limiter = RateLimiter(permits: 2, per: .seconds(1), clock: clock)
    let sentAt = try runner.run {
      var sentAt: [Int64] = []
      for _ in 0..<3 {
        try await limiter.acquire()         // the 3rd call inside a second waits here
        sentAt.append(clock.now.milliseconds)   // send the request now
      }
      return sentAt
    }
    // sentAt == [0, 0, 1_000]
    #expect(sentAt == [0, 0, 1_000])
  }

  @Test func mergeInterleavesCategories() async throws {
    let (music, musicAnswers) = AsyncStream.makeStream(of: String.self)
    let (movies, movieAnswers) = AsyncStream.makeStream(of: String.self)
    musicAnswers.yield("Red"); musicAnswers.finish()
    movieAnswers.yield("Heat"); movieAnswers.yield("Up"); movieAnswers.finish()
    var titles: [String] = []
    for try await title in merge([music, movies]) { titles.append(title) }
    // titles holds "Red", "Heat" and "Up"; "Heat" comes before "Up"; the loop ends when both finish
    #expect(titles.sorted() == ["Heat", "Red", "Up"])
    #expect(titles.firstIndex(of: "Heat") ?? 3 < titles.firstIndex(of: "Up") ?? 0)
  }

  @Test func debounceSearchesWhatTheUserPausedOn() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (keystrokes, typing) = AsyncStream.makeStream(of: String.self)
    let searched = runner.start {
      var texts: [String] = []
      for try await text in keystrokes.debounce(for: .milliseconds(300), clock: clock) { texts.append(text) }
      return texts
    }
    typing.yield("t"); typing.yield("ta")
    runner.advance(by: .milliseconds(100))   // nothing yet: the user is still typing
    typing.yield("tay")
    runner.advance(by: .milliseconds(300))   // 300 ms quiet after "tay": it is emitted now
    typing.finish()
    let texts = try runner.finish(searched)  // texts == ["tay"]: "t" and "ta" were superseded
    #expect(texts == ["tay"])
    #expect(runner.now == .milliseconds(400))
  }

  @Test func debounceWithAQuietPeriodPerElement() throws {
    let runner = VirtualTimeRunner()
    let (texts, typing) = AsyncStream.makeStream(of: String.self)
    let shown = Recorder<String>()          // StreamsTesting
    let debounced = texts.debounce(clock: runner.clock) { $0.isEmpty ? .zero : .milliseconds(300) }
    let task = runner.start { for try await text in debounced { shown.append(text) } }
    typing.yield("tay"); runner.runUntilIdle()   // shown.values == []: letters wait
    #expect(shown.values == [])
    typing.yield(""); runner.runUntilIdle()      // shown.values == [""]: the results clear at once
    #expect(shown.values == [""])
    typing.finish()
    try runner.finish(task)                      // "tay" was dropped, never shown
    #expect(shown.values == [""])
    #expect(runner.now == .zero)
  }

  @Test func removeDuplicatesByKey() async {
    let (terms, settle) = AsyncStream.makeStream(of: String.self)
    for term in ["tay", "Tay", "taylor", "tay"] { settle.yield(term) }
    settle.finish()
    var searched: [String] = []
    for await term in terms.removeDuplicates(by: { $0.lowercased() }) { searched.append(term) }
    // searched == ["tay", "taylor", "tay"]: only a repeat of the term just before is dropped
    #expect(searched == ["tay", "taylor", "tay"])
  }

  @Test func switchMapCancelsTheSearchInFlight() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (terms, typing) = AsyncStream.makeStream(of: String.self)
    let shown = runner.start {
      var shown: [String] = []
      for try await event in terms.switchMap({ term, emit in
        guard (try? await clock.sleep(for: .milliseconds(100))) != nil else { return }  // a 100 ms search
        emit("results for \(term)")
      }) {
        switch event {
        case .started(let term): shown.append("searching \(term)")
        case .output(let output): shown.append(output)
        case .cancelled(let term, by: let newer): shown.append("\(term) superseded by \(newer)")
        }
      }
      return shown
    }
    typing.yield("ta"); runner.advance(by: .milliseconds(50))   // the search for "ta" is in flight
    typing.yield("tay"); runner.advance(by: .milliseconds(100))
    typing.finish()
    let lines = try runner.finish(shown)
    // lines == ["searching ta", "ta superseded by tay", "searching tay", "results for tay"]
    #expect(lines == ["searching ta", "ta superseded by tay", "searching tay", "results for tay"])
    #expect(runner.now == .milliseconds(150))
  }

  @Test func withRetryAroundATimedOutFetch() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock                 // ContinuousClock() in production
    let attempts = Mutex(0)
    let policy = RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(200))
    let answer = try runner.run {
      try await withRetry(policy, clock: clock, shouldRetry: { $0 is TimeoutError }) {
        try await withTimeout(.seconds(2), clock: clock) {
          let attempt = attempts.withLock { $0 += 1; return $0 }
          try await clock.sleep(for: attempt == 1 ? .seconds(60) : .milliseconds(10))   // the 1st call hangs
          return "answer of attempt \(attempt)"
        }
      }
    }
    // answer == "answer of attempt 2" at 2_210 ms: a 2 s timeout, a 200 ms backoff, a 10 ms call
    #expect(answer == "answer of attempt 2")
    #expect(runner.now == .milliseconds(2_210))
    #expect(attempts.withLock { $0 } == 2)
  }

  @Test func asyncCacheInFrontOfASearch() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock                 // ContinuousClock() in production
    let cache = AsyncCache<String, [String], ManualClock>(capacity: 256, timeToLive: .seconds(30), clock: clock)
    @Sendable func search(_ query: String) async throws -> [String] {
      try await clock.sleep(for: .milliseconds(100)); return ["\(query) (song)"]
    }
    let first = try runner.run { try await cache.value(for: "tay") { try await search("tay") } }
    // first.origin == .loaded, after 100 ms (runner.now == .milliseconds(100))
    #expect(first.origin == .loaded)
    #expect(runner.now == .milliseconds(100))
    let again = try runner.run { try await cache.value(for: "tay") { try await search("tay") } }
    // again.origin == .cached at once, with the same value
    #expect(again.origin == .cached)
    #expect(again.value == first.value)
    #expect(runner.now == .milliseconds(100))
  }

  @Test func lineReaderReportsABadLineAndGoesOn() async throws {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)                          // ends[0] stands in for STDIN_FILENO
    let typed: [UInt8] = Array("tay\n".utf8) + [0xFF, 0x0A] + Array("taylor".utf8)
    _ = typed.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])                           // the writer is done: the reader finishes after "taylor"
    var texts: [String] = [], badLines: [Int] = []
    for try await line in LineReader(fileDescriptor: ends[0]) {
      switch line.content {
      case .text(let text): texts.append(text)
      case .invalidUTF8, .tooLong: badLines.append(line.number)
      }
    }
    close(ends[0])
    // texts == ["tay", "taylor"], badLines == [2]: a bad line is reported and reading goes on
    #expect(texts == ["tay", "taylor"])
    #expect(badLines == [2])
  }

  @Test func blockingLineReaderReplaysAFileInVirtualTime() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("keystrokes-\(UUID()).txt").path
    try "t\nta\ntay\n".write(toFile: path, atomically: true, encoding: .utf8)
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (keystrokes, typing) = AsyncStream.makeStream(of: String.self)
    let searched = runner.start {
      var terms: [String] = []
      for try await term in keystrokes.debounce(for: .milliseconds(300), clock: clock) { terms.append(term) }
      return terms
    }
    var reader = try BlockingLineReader.open(path: path)
    while let line = try reader.next() {     // blocks this thread, the one that drives the runner
      typing.yield(line.text ?? "")
      runner.advance(by: .milliseconds(100)) // one keystroke every 100 ms of virtual time
    }
    typing.finish()
    let terms = try runner.finish(searched)  // terms == ["tay"], searched when the input ended
    #expect(terms == ["tay"])
    #expect(runner.now == .milliseconds(300))
    try FileManager.default.removeItem(atPath: path)
  }

  @Test func withTimeoutBoundsAHangingSource() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock                 // ContinuousClock() in production
    let outcome = try runner.run {
      do {
        return try await withTimeout(.seconds(2), clock: clock) {
          try await clock.sleep(for: .seconds(60)); return "answer"   // a source that hangs
        }
      } catch is TimeoutError {
        return "timed out"
      }
    }
    // outcome == "timed out", runner.now == .milliseconds(2_000): the hang cost exactly 2 s
    #expect(outcome == "timed out")
    #expect(runner.now == .milliseconds(2_000))
    #expect(clock.sleeperCount == 0)
  }

  // The fused path: feeds, pushed chains and timers without tasks.

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

  /// The landing page of Streams' documentation (Streams.docc/Streams.md): a search field in one example.
  @Test func streamsLandingPageExample() throws {
    let runner = VirtualTimeRunner()
    let clock = runner.clock                        // ContinuousClock() in production
    let (keystrokes, typing) = AsyncStream.makeStream(of: String.self)
    let shown = Recorder<String>()                  // StreamsTesting

    @Sendable func search(_ term: String) async -> String? {
      guard (try? await clock.sleep(for: .milliseconds(400))) != nil else { return nil }  // cancelled
      return "results for \(term)"
    }

    let screen = runner.start {
      let events = keystrokes
        .debounce(for: .milliseconds(300), clock: clock)
        .removeDuplicates()
        .switchMap { (term: String, emit: SwitchMapEmitter<String>) in
          if let answer = await search(term) { emit(answer) }
        }
      for try await event in events {
        switch event {
        case .started(let term): shown.append("\(clock.now): searching \(term)")
        case .output(let answer): shown.append("\(clock.now): \(answer)")
        case .cancelled(let term, by: let newer): shown.append("\(clock.now): \(term) cancelled by \(newer)")
        }
      }
    }
    typing.yield("t")
    runner.advance(to: .milliseconds(100)); typing.yield("ta")
    runner.advance(to: .milliseconds(200)); typing.yield("tay")     // settles at 500 ms
    runner.advance(to: .milliseconds(550)); typing.yield("taylor")  // settles at 850 ms
    runner.advance(to: .milliseconds(1_300))
    typing.finish()
    try runner.finish(screen)
    // shown.values == ["500 ms: searching tay", "850 ms: tay cancelled by taylor",
    //                  "850 ms: searching taylor", "1,250 ms: results for taylor"]
    #expect(shown.values == ["500 ms: searching tay", "850 ms: tay cancelled by taylor",
                             "850 ms: searching taylor", "1,250 ms: results for taylor"])
  }
}
