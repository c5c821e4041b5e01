// `stream-search worker --metrics HOST:PORT` through the built binary, against a real
// redis-server: `/metrics` with the names `serve` uses and the worker's own gauges, `/healthz`,
// and an address it cannot have.
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct WorkerMetricsTests {
  static let needsRedisAndCurl = ConditionTrait.enabled(
    if: RedisServer.shouldRun && Curl.tool.isAvailableOrCI,
    Comment(rawValue: RedisServer.shouldRun ? Curl.tool.skipNote : RedisServer.skipNote))

  /// A worker of a two-shard deployment answering from the small catalog, serving its metrics.
  static func worker(_ redis: RedisServer, prefix: String, metrics: String = "127.0.0.1:0") throws -> ToolProcess {
    let catalog = SharedFixtures.projectFolder("interactive-catalog.json").path
    return try ToolProcess(
      toolBinary(),
      arguments: [
        "worker", "--redis", redis.url, "--redis-prefix", prefix, "--shards", "2", "--name", "w1", "--catalog",
        catalog, "--metrics", metrics,
      ])
  }

  /// The `HOST:PORT` the worker named on stderr, as `http://HOST:PORT/metrics`.
  static func metricsAddress(of worker: ToolProcess) async -> String? {
    guard await worker.waitForError(within: hangBound, containing: "http://") else { return nil }
    let line = worker.errorLines.first { $0.contains("http://") } ?? ""
    guard let range = line.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) else { return nil }
    return String(line[range].dropFirst("http://".count))
  }

  /// Polls `/metrics` until `condition` holds for its text; the last text read.
  static func metrics(at address: String, until condition: @escaping @Sendable (String) -> Bool) async -> String? {
    await poll(every: .milliseconds(200)) {
      guard let text = try? await Curl.get("http://\(address)/metrics").body, condition(text) else { return nil }
      return text
    }
  }

  @Test(needsRedisAndCurl) func aWorkerServesItsMetricsAndHealth() async throws {
    let redis = try await RedisServer.start()
    defer { redis.stop() }
    let worker = try Self.worker(redis, prefix: "wm")
    defer { worker.stop() }
    let address = try #require(await Self.metricsAddress(of: worker))
    let held = await Self.metrics(at: address) { $0.contains("\nstream_search_shards_held 2\n") }
    #expect(held != nil)
    #expect(try await Curl.get("http://\(address)/healthz") == (200, "ok\n"))
    let lines = ["taylor", "love story"].enumerated().map { #"{"term":"\#($1)","session":"s\#($0)"}"# }
    let published = try await Subprocess.run(
      toolBinary(), arguments: ["publish", "--redis", redis.url, "--redis-prefix", "wm"],
      input: Data(lines.map { $0 + "\n" }.joined().utf8))
    #expect(published.status == 0, "\(published.stderr)")
    let answered = await Self.metrics(at: address) { $0.contains("\nstream_search_results_total 2\n") }
    let text = try #require(answered)
    for line in [
      "stream_search_keystrokes_total 2", "stream_search_searches_total 2",
      "# TYPE stream_search_search_seconds histogram",
      #"stream_search_search_seconds_count 2"#, #"stream_search_cancelled_total{reason="superseded"} 0"#,
      "stream_search_errors_total 0", "# TYPE stream_search_cache_hits_total counter",
      "# TYPE stream_search_requests_total counter", "# TYPE stream_search_shard_pending gauge",
      #"stream_search_shard_pending{shard="0"} 0"#, #"stream_search_shard_pending{shard="1"} 0"#,
    ] {
      #expect(text.contains("\n" + line + "\n"), "\(line) in \(text)")
    }
    // Serve's own gauges are not a worker's.
    #expect(!text.contains("stream_search_connections"))
    worker.signal(SIGTERM)
    #expect(await worker.waitForExit(within: hangBound)?.status == 143)
  }

  @Test(needsRedisAndCurl) func aMetricsAddressInUseIsOneErrorLineAndStatus69() async throws {
    let redis = try await RedisServer.start()
    defer { redis.stop() }
    let first = try Self.worker(redis, prefix: "wu")
    defer { first.stop() }
    let address = try #require(await Self.metricsAddress(of: first))
    let second = try Self.worker(redis, prefix: "wu", metrics: address)
    #expect(await second.waitForExit(within: hangBound)?.status == 69)
    #expect(second.errorLines == ["Error: cannot listen on \(address): address already in use"])
  }
}
