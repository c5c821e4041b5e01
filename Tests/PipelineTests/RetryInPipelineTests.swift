// Transient failures are tried again with backoff, within the configured attempts; rate limiting
// and other failures are not.
import Pipeline
import Streams
import TestSupport
import Testing

@Suite struct RetryInPipelineTests {
  func configuration(attempts: Int) -> PipelineConfiguration {
    var configuration = PipelineConfiguration()
    configuration.categories = [.music]
    configuration.searchTimeout = nil
    configuration.retry = RetryPolicy(maxAttempts: attempts, initialBackoff: .seconds(1))
    return configuration
  }

  @Test func aServerErrorIsRetriedAfterTheBackoffAndTheSearchSucceeds() throws {
    let (log, source) = try replay([Key(0, "tay")], configuration: configuration(attempts: 3)) { clock in
      let source = StubSource(latency: .milliseconds(10), clock: clock)
      source.failNext([.server(503), .offline("connection reset")])
      return source
    }
    // Attempts at 300 (fails at 310), 1310 (fails at 1320), 3320 (answers at 3330).
    #expect(log.lines.dropLast() == ["search tay@300", "results tay load@3330"])
    #expect(source.requests.count == 3)
  }

  @Test func neverMoreThanTheConfiguredAttempts() throws {
    let (log, source) = try replay([Key(0, "tay")], configuration: configuration(attempts: 2)) { clock in
      let source = StubSource(latency: .milliseconds(10), clock: clock)
      source.failNext([.server(503), .server(503), .server(503)])
      return source
    }
    #expect(log.lines.dropLast() == ["search tay@300", "error tay server@1320"])
    #expect(source.requests.count == 2)
  }

  @Test(arguments: [SearchError.rateLimited, .decoding("<html>"), .badStatus(418)])
  func otherFailuresAreNotRetried(error: SearchError) throws {
    let (log, source) = try replay([Key(0, "tay")], configuration: configuration(attempts: 5)) { clock in
      let source = StubSource(latency: .milliseconds(10), clock: clock)
      source.failNext([error])
      return source
    }
    #expect(log.lines.dropLast() == ["search tay@300", "error tay \(error.kind)@310"])
    #expect(source.requests.count == 1)
  }
}

@Suite struct StaleFallbackTests {
  @Test func anExpiredAnswerIsServedAsStaleWhenTheSourceFails() throws {
    var configuration = PipelineConfiguration()
    configuration.categories = [.music]
    configuration.cacheTimeToLive = .seconds(1)
    let logged = Recorder<String>()
    configuration.log = { logged.append($0.description) }
    let keys = [Key(0, "tay"), Key(1_000, ""), Key(5_000, "tay")]
    let (log, source) = try replay(keys, configuration: configuration) { clock in
      let source = StubSource(latency: .milliseconds(10), clock: clock)
      // The first answer is fresh; every later request fails as if offline.
      source.failAfterFirst(.offline("network is unreachable"))
      return source
    }
    #expect(
      log.lines.dropLast() == [
        "search tay@300", "results tay load@310", "cleared@1000", "search tay@5300", "results tay load@5310",
      ])
    guard case .results(_, _, let categories, _) = log.events[4].kind,
      case .items(let items, let origin) = categories.first?.outcome
    else {
      Issue.record("expected results with items: \(log.lines)")
      return
    }
    #expect(origin == .stale)
    #expect(items.count == 2)
    #expect(source.requests.count == 2)
    let expectedLog = #"[cache] serving the expired answer for "tay" (music): offline"#
    #expect(logged.values.contains { $0.hasPrefix(expectedLog) })
  }

  @Test func withoutAStoredAnswerTheFailureIsReported() throws {
    var configuration = PipelineConfiguration()
    configuration.categories = [.music]
    configuration.cacheTimeToLive = .seconds(1)
    let (log, _) = try replay([Key(0, "tay")], configuration: configuration) { clock in
      StubSource(latency: .milliseconds(10), clock: clock, failures: ["tay": .offline("unreachable")])
    }
    #expect(log.lines.dropLast() == ["search tay@300", "error tay offline@310"])
  }
}
