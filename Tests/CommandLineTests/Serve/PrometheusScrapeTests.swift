// A real Prometheus server (Debian's `prometheus`) scraping `serve` and `worker --metrics` on
// loopback: both targets come up, and what they count reads back through Prometheus's HTTP API.
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct PrometheusScrapeTests {
  static let prometheus = RequiredTool.executable("prometheus", installedBy: "prometheus")

  static let needsPrometheusAndRedis = ConditionTrait.enabled(
    if: prometheus.isAvailableOrCI && RedisServer.shouldRun && Curl.tool.isAvailableOrCI,
    Comment(rawValue: !RedisServer.shouldRun ? RedisServer.skipNote : prometheus.skipNote))

  /// A free loopback port, from the kernel (Prometheus takes no port 0 it would report).
  static func freePort() async throws -> String {
    let python = URL(fileURLWithPath: "/usr/bin/python3")
    let found = try await Subprocess.run(
      python,
      arguments: ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
    return found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The samples of `query` now, as (instance, value).
  static func query(_ base: String, _ query: String) async -> [(instance: String, value: String)] {
    guard let reply = try? await Curl.get(base + "/api/v1/query?query=" + query), reply.status == 200,
      let object = (try? JSONSerialization.jsonObject(with: Data(reply.body.utf8))) as? [String: Any],
      let results = (object["data"] as? [String: Any])?["result"] as? [[String: Any]]
    else { return [] }
    return results.compactMap { sample in
      guard let instance = (sample["metric"] as? [String: Any])?["instance"] as? String,
        let value = (sample["value"] as? [Any])?.last as? String
      else { return nil }
      return (instance, value)
    }
  }

  @Test(needsPrometheusAndRedis) func prometheusScrapesServeAndAWorker() async throws {
    let redis = try await RedisServer.start()
    defer { redis.stop() }
    let worker = try WorkerMetricsTests.worker(redis, prefix: "pm")
    defer { worker.stop() }
    let workerAddress = try #require(await WorkerMetricsTests.metricsAddress(of: worker))
    let serve = try await ServeProcess()
    #expect(try await Curl.get("http://\(serve.address)/search?q=queen").status == 200)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prometheus-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let configuration = directory.appendingPathComponent("prometheus.yml")
    try """
    global:
      scrape_interval: 1s
    scrape_configs:
      - job_name: stream-search
        static_configs:
          - targets: ["\(serve.address)", "\(workerAddress)"]
    """.write(to: configuration, atomically: true, encoding: .utf8)
    let port = try await Self.freePort()
    let server = try ToolProcess(
      URL(fileURLWithPath: try Self.prometheus.path()),
      arguments: [
        "--config.file=\(configuration.path)", "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
        "--web.listen-address=127.0.0.1:\(port)",
      ])
    defer { server.stop() }
    let base = "http://127.0.0.1:\(port)"

    // Both targets up, and serve's one search and the worker's two shards read back.
    let scraped = await poll(every: .milliseconds(500)) { () async -> Bool? in
      let up = await Self.query(base, "up")
      let keystrokes = await Self.query(base, "stream_search_keystrokes_total")
      let held = await Self.query(base, "stream_search_shards_held")
      let read =
        Set(up.filter { $0.value == "1" }.map(\.instance)) == [serve.address, workerAddress]
        && keystrokes.contains(where: { $0 == (serve.address, "1") })
        && held.contains(where: { $0 == (workerAddress, "2") })
      return read ? true : nil
    }
    #expect(scraped == true, "Prometheus never read both targets: \(server.errorLines.suffix(5))")
    _ = await serve.stop()
  }
}
