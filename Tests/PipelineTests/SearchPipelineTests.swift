// The pipeline's semantics, replayed in virtual time with a counting stub source.
import Pipeline
import Streams
import TestSupport
import Testing

@Suite struct SearchPipelineTests {
  @Test func searchesOnlyTheTermTheTypistPausedOn() throws {
    let (log, source) = try replay([Key(0, "t"), Key(100, "ta"), Key(200, "tay")])
    #expect(log.lines.dropLast() == ["search tay@500", "results tay load@901"])
    #expect(source.requests.map(\.term) == ["tay", "tay", "tay"])
    #expect(Set(source.requests.map(\.category)) == Set(Category.defaults))
  }

  @Test func nothingIsAskedAt499AndTheSearchStartsAt500() throws {
    let run = RunningPipeline { StubSource(latency: .milliseconds(401), clock: $0) }
    let (runner, source, log) = (run.runner, run.source, run.log)
    for (at, text) in [(0, "t"), (100, "ta"), (200, "tay")] as [(Int64, String)] {
      runner.advance(to: .milliseconds(at))
      run.send(Keystroke(term: text, atMilliseconds: nil, session: nil))
    }
    runner.advance(to: .milliseconds(499))
    #expect(source.requests.isEmpty)
    #expect(log.lines.isEmpty)
    runner.advance(to: .milliseconds(500))
    #expect(source.requests.count == 3)
    #expect(log.lines == ["search tay@500"])
    runner.advance(to: .milliseconds(900))
    #expect(log.lines == ["search tay@500"])
    runner.advance(to: .milliseconds(901))
    #expect(log.lines == ["search tay@500", "results tay load@901"])
    let summary = try run.finish()
    #expect(summary.searches == 1)
    #expect(runner.clock.sleeperCount == 0)
  }

  @Test func aClearedFieldThenTheSameTermIsAnsweredFromTheCacheWithNoRequest() throws {
    let keys = [Key(0, "Taylor"), Key(1_000, ""), Key(2_000, "Taylor")]
    let (log, source) = try replay(keys)
    #expect(
      log.lines.dropLast() == [
        "search Taylor@300", "results Taylor load@701", "cleared@1000", "search Taylor@2300",
        "results Taylor cache@2300",
      ])
    #expect(source.requests.count == 3)
  }

  @Test func aClearCancelsTheSearchInFlightAndItsRequests() throws {
    let (log, source) = try replay([Key(0, "taylor"), Key(500, "")])
    #expect(log.lines.dropLast() == ["search taylor@300", "cancelled taylor cleared@500", "cleared@500"])
    #expect(source.cancelledRequests.count == 3)
  }

  @Test func aNewerTermSupersedesTheSearchInFlight() throws {
    let (log, _) = try replay([Key(0, "tay"), Key(400, "taylor")])
    #expect(
      log.lines.dropLast() == [
        "search tay@300", "cancelled tay superseded@700", "search taylor@700", "results taylor load@1101",
      ])
  }

  @Test func theSameKeyInAnotherCaseOrSpacingIsNotSearchedAgain() throws {
    let (log, source) = try replay([Key(0, "taylor  swift"), Key(1_000, " Taylor Swift ")])
    #expect(log.lines.dropLast() == ["search taylor swift@300", "results taylor swift load@701"])
    #expect(source.requests.count == 3)
  }

  @Test func aTermShorterThanTheMinimumBehavesAsCleared() throws {
    var configuration = PipelineConfiguration()
    configuration.minimumTermLength = 3
    let (log, source) = try replay([Key(0, "ta"), Key(1_000, "tay")], configuration: configuration)
    #expect(log.lines.dropLast() == ["cleared@0", "search tay@1300", "results tay load@1701"])
    #expect(source.requests.allSatisfy { $0.term == "tay" })
  }

  @Test func theLastPendingTermSettlesAtOnceAtTheEndOfInput() throws {
    let (log, _) = try replay([Key(0, "t"), Key(50, "ta")], inputEndsAt: 50)
    #expect(log.lines == ["search ta@50", "results ta load@451", "summary@451"])
  }

  @Test func oneFailingCategoryIsReportedInItsPlace() throws {
    var configuration = PipelineConfiguration()
    configuration.categories = [.music, .movies, .podcasts]
    let (log, _) = try replay([Key(0, "tay")], configuration: configuration) {
      StubSource(latency: .milliseconds(10), clock: $0, failures: ["movies:*": .server(503)])
    }
    guard case .results(_, _, let categories, _) = log.events[1].kind else {
      Issue.record("expected results, got \(log.lines)")
      return
    }
    #expect(categories.map(\.category) == [.music, .movies, .podcasts])
    #expect(categories[1].outcome == .failed(.server(503)))
    if case .items(let items, let origin) = categories[0].outcome {
      #expect(items.count == 2)
      #expect(origin == .catalog)
    } else {
      Issue.record("music should have items")
    }
  }

  @Test func categoriesArePresentedInTheRequestedOrderWhateverOrderTheyArrive() throws {
    var configuration = PipelineConfiguration()
    configuration.categories = [.podcasts, .music, .movies]
    let (log, _) = try replay([Key(0, "tay")], configuration: configuration) {
      StubSource(
        clock: $0, latencies: [.podcasts: .milliseconds(90), .music: .milliseconds(10), .movies: .milliseconds(50)])
    }
    guard case .results(_, _, let categories, let elapsed) = log.events[1].kind else {
      Issue.record("expected results, got \(log.lines)")
      return
    }
    #expect(categories.map(\.category) == [.podcasts, .music, .movies])
    #expect(elapsed == 90)
  }

  @Test func progressiveModeEmitsEachCategoryAsItArrives() throws {
    var configuration = PipelineConfiguration()
    configuration.progressive = true
    let (log, _) = try replay([Key(0, "tay")], configuration: configuration) {
      StubSource(
        clock: $0, latencies: [.music: .milliseconds(30), .movies: .milliseconds(10), .podcasts: .milliseconds(20)])
    }
    #expect(
      log.lines.dropLast() == [
        "search tay@300", "partial tay movies@310", "partial tay podcasts@320", "partial tay music@330",
        "results tay load@330",
      ])
  }

  @Test func everyCategoryFailingIsAnError() throws {
    let (log, _) = try replay([Key(0, "tay")]) {
      StubSource(latency: .milliseconds(5), clock: $0, failures: ["tay": .rateLimited])
    }
    #expect(log.lines.dropLast() == ["search tay@300", "error tay rateLimited@305"])
  }

  @Test func failuresAreNotCached() throws {
    let keys = [Key(0, "tay"), Key(1_000, ""), Key(2_000, "tay")]
    let (_, source) = try replay(keys) {
      StubSource(latency: .milliseconds(5), clock: $0, failures: ["tay": .rateLimited])
    }
    #expect(source.requests.count == 6)
  }

  @Test func theSearchTimeoutCutsOffSlowCategoriesAndCancelsThem() throws {
    var configuration = PipelineConfiguration()
    configuration.searchTimeout = .seconds(2)
    let (log, source) = try replay([Key(0, "tay")], configuration: configuration) {
      StubSource(clock: $0, latencies: [.music: .milliseconds(10), .movies: .seconds(60), .podcasts: .seconds(60)])
    }
    guard case .results(_, _, let categories, let elapsed) = log.events[1].kind else {
      Issue.record("expected results, got \(log.lines)")
      return
    }
    #expect(elapsed == 2_000)
    #expect(categories[1].outcome == .failed(.timedOut))
    #expect(categories[2].outcome == .failed(.timedOut))
    #expect(source.cancelledRequests.count == 2)
  }

  @Test func aFastSearchDoesNotWaitForTheTimeout() throws {
    // The input ends at once, so the run ends when the search does: not 10 s later.
    let (log, _) = try replay([Key(0, "tay")], inputEndsAt: 0)
    #expect(log.lines == ["search tay@0", "results tay load@401", "summary@401"])
  }

  @Test func sessionsShareTheCacheAndJoinALoadInFlight() throws {
    let keys = [Key(0, "serial", session: "a"), Key(100, "serial", session: "b")]
    let (log, source) = try replay(keys)
    #expect(
      log.lines.dropLast() == [
        "[a] search serial@300", "[b] search serial@400", "[a] results serial load@701",
        "[b] results serial joined@701",
      ])
    #expect(source.requests.count == 3)
  }

  @Test func sessionsHaveIndependentDebounceAndCancelPrevious() throws {
    let keys = [Key(0, "tay", session: "a"), Key(100, "zim", session: "b"), Key(200, "", session: "b")]
    let (log, _) = try replay(keys)
    #expect(log.lines.dropLast() == ["[b] cleared@200", "[a] search tay@300", "[a] results tay load@701"])
  }

  @Test func theRateLimiterQueuesRequestsInVirtualTime() throws {
    var configuration = PipelineConfiguration()
    configuration.categories = [.music]
    configuration.rateLimit = RateLimit(permits: 2, per: .seconds(60))
    configuration.searchTimeout = nil
    let keys = [Key(0, "a1"), Key(1_000, "b2"), Key(2_000, "c3")]
    let (log, source) = try replay(keys, configuration: configuration) {
      StubSource(latency: .milliseconds(10), clock: $0)
    }
    #expect(
      log.lines.dropLast() == [
        // c3 is told at once that it waits for the permit a1 held until its answer at 310 ms,
        // which frees a window after that end: 60,310 - 2,300.
        "search a1@300", "results a1 load@310", "search b2@1300", "results b2 load@1310", "search c3@2300",
        "waiting c3 music 58010@2300", "results c3 load@60320",
      ])
    #expect(source.requests.count == 3)
  }

  @Test func singleRequestModeSpendsOneRequestPerSearch() throws {
    var configuration = PipelineConfiguration()
    configuration.singleRequest = true
    let (log, source) = try replay([Key(0, "tay")], configuration: configuration)
    #expect(log.lines.dropLast() == ["search tay@300", "results tay load@701"])
    #expect(source.requests.count == 1)
  }

  @Test func singleRequestModeWithNoCategoriesAnswersWithNoneAndSendsNothing() throws {
    // Reachable through the public configuration; it used to stop the process.
    var configuration = PipelineConfiguration()
    configuration.singleRequest = true
    configuration.categories = []
    let (log, source) = try replay([Key(0, "tay")], configuration: configuration)
    #expect(log.lines.dropLast() == ["search tay@300", "results tay load@300"])
    #expect(source.requests.isEmpty)
  }

  @Test func anEmptySessionNameIsNoSessionEverywhere() throws {
    // "" and no session are one field: one debounce, and the shutdown names no session either.
    let lines = [#"{"term": "tay", "at_ms": 0, "session": ""}"#, #"{"term": "taylor", "at_ms": 100}"#]
    let keys = lines.compactMap { line -> Keystroke? in
      guard case .keystroke(let keystroke, _) = InputLineParser.parse(line, line: 1) else { return nil }
      return keystroke
    }
    #expect(keys.map(\.session) == [nil, nil])
  }

  @Test func summaryCountsWhatHappened() throws {
    let keys = [Key(0, "tay"), Key(1_000, ""), Key(2_000, "tay"), Key(3_000, "zim"), Key(3_400, "")]
    let (log, _) = try replay(keys)
    guard case .summary(let summary) = log.events.last?.kind else {
      Issue.record("the summary must come last: \(log.lines)")
      return
    }
    #expect(summary.inputLines == 5)
    #expect(summary.searches == 3)
    #expect(summary.results == 2)
    #expect(summary.cancellations == 1)
    // tay loads 3 categories; zim loads 3 and is cancelled by the clear; the second tay hits 3.
    #expect(summary.requests == 6)
    #expect(summary.cacheHits == 3)
    #expect(log.events.map(\.seq) == Array(1...log.events.count))
  }
}

@Suite struct SessionIdleTests {
  @Test func anIdleSessionIsForgottenAndStartsAfreshWhenItComesBack() throws {
    let forgotten = Recorder<String>()
    var configuration = PipelineConfiguration()
    configuration.sessionIdleTimeout = .seconds(2)
    configuration.log = { message in
      if case .sessionForgotten(let session) = message { forgotten.append(session) }
    }
    let keys = [Key(0, "tay", session: "a"), Key(3_000, "zim", session: "b"), Key(6_000, "tay", session: "a")]
    let (log, source) = try replay(keys, configuration: configuration)
    // The sweep is a timer of the run's clock: "a" is forgotten again after its last keystroke
    // though no line follows it (the input stays open 10 s longer).
    #expect(forgotten.values == ["a", "b", "a"])
    // Forgotten, "a" has no distinct state left: "tay" is searched again, from the cache.
    #expect(
      log.lines.filter { $0.hasPrefix("[a]") } == [
        "[a] search tay@300", "[a] results tay load@701", "[a] search tay@6300", "[a] results tay cache@6300",
      ])
    #expect(source.requests.count == 6)
  }
}
