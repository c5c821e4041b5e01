// The stream_search_* metrics follow the pipeline's observations: a search's start and end, its
// cancellation with its reason, requests and cache hits.
import Foundation
import Metrics
import Pipeline
import TestSupport
import Testing

@testable import stream_search

@Suite struct SearchMetricsTests {
  static let promtool = RequiredTool.executable("promtool", installedBy: "prometheus")

  @Test(.enabled(if: promtool.isAvailableOrCI, Comment(rawValue: promtool.skipNote)))
  func prometheusOwnCheckerAcceptsEveryMetricWithoutAComplaint() async throws {
    for role in [SearchMetrics.Role.serve, .worker] {
      let metrics = try SearchMetrics(role: role)
      metrics.observe(.searchFinished(session: nil, term: "q", items: 1, elapsed: .milliseconds(3)))
      metrics.shardPending?.labels("0")?.set(1)
      let check = try await Subprocess.run(
        URL(fileURLWithPath: try Self.promtool.path()), arguments: ["check", "metrics"],
        input: Data(metrics.registry.exposition().utf8))
      #expect(check.status == 0 && check.stdout.isEmpty && check.stderr.isEmpty, "\(check.stdout)\(check.stderr)")
    }
  }

  @Test func observationsAreCountedUnderTheirNames() throws {
    let metrics = try SearchMetrics(role: .serve)
    let observations: [PipelineObservation] = [
      .keystroke(session: "a"), .keystroke(session: "a"), .searchStarted(session: "a", term: "q"),
      .requestSent(term: "q", category: "music", source: "catalog", remote: false),
      .cacheHit(term: "q", category: "movies"),
      .searchFinished(session: "a", term: "q", items: 3, elapsed: .milliseconds(4)),
      .searchStarted(session: "a", term: "qu"), .searchCancelled(session: "a", term: "qu", reason: .superseded),
      .searchStarted(session: "a", term: "que"), .searchFailed(session: "a", term: "que", error: .offline("down")),
      .sessionForgotten("a"),
    ]
    for observation in observations { metrics.observe(observation) }
    metrics.connections?.add(2)
    metrics.picks?.increment()
    let text = metrics.registry.exposition()
    let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    #expect(
      samples == [
        "stream_search_keystrokes_total 2", "stream_search_searches_total 3", "stream_search_results_total 1",
        #"stream_search_cancelled_total{reason="cleared"} 0"#,
        #"stream_search_cancelled_total{reason="shutdown"} 0"#,
        #"stream_search_cancelled_total{reason="superseded"} 1"#,
        "stream_search_errors_total 1", "stream_search_cache_hits_total 1", "stream_search_requests_total 1",
        #"stream_search_search_seconds_bucket{le="0.001"} 0"#,
        #"stream_search_search_seconds_bucket{le="0.0025"} 0"#,
        #"stream_search_search_seconds_bucket{le="0.005"} 1"#,
        #"stream_search_search_seconds_bucket{le="0.01"} 1"#,
        #"stream_search_search_seconds_bucket{le="0.025"} 1"#,
        #"stream_search_search_seconds_bucket{le="0.05"} 1"#,
        #"stream_search_search_seconds_bucket{le="0.1"} 1"#,
        #"stream_search_search_seconds_bucket{le="0.25"} 1"#,
        #"stream_search_search_seconds_bucket{le="0.5"} 1"#,
        #"stream_search_search_seconds_bucket{le="1"} 1"#,
        #"stream_search_search_seconds_bucket{le="2.5"} 1"#,
        #"stream_search_search_seconds_bucket{le="5"} 1"#,
        #"stream_search_search_seconds_bucket{le="10"} 1"#,
        #"stream_search_search_seconds_bucket{le="+Inf"} 1"#,
        "stream_search_search_seconds_sum 0.004", "stream_search_search_seconds_count 1",
        "stream_search_connections 2", "stream_search_picks_total 1",
      ])
  }

  @Test func aWorkerExposesItsShardsInsteadOfConnections() throws {
    let metrics = try SearchMetrics(role: .worker)
    metrics.shardsHeld?.set(2)
    metrics.shardPending?.labels("3")?.set(5)
    let text = metrics.registry.exposition()
    #expect(text.contains("\nstream_search_shards_held 2\n"))
    #expect(text.contains("\nstream_search_shard_pending{shard=\"3\"} 5\n"))
    #expect(!text.contains("stream_search_connections"))
    #expect(!text.contains("stream_search_picks_total"))
  }
}
