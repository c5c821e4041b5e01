// The metrics an operator scrapes from `serve` and `worker --metrics`, fed by a pipeline observer:
// the counts follow the events (a search, its results, its cancellation) and the requests the
// source was sent, never a log line. docs/metrics.md lists them.
import Metrics
import Pipeline

/// The `stream_search_*` metrics of one process, and the observer that feeds them.
final class SearchMetrics: PipelineObserver {
  /// Which process exposes them: each adds its own gauges to the common ones.
  enum Role: Sendable {
    case serve
    case worker
  }

  let registry: MetricsRegistry
  let keystrokes: Counter
  let searches: Counter
  let results: Counter
  let cancelled: MetricFamily<Counter>
  let errors: Counter
  let cacheHits: Counter
  let requests: Counter
  let searchSeconds: Histogram
  /// Open WebSocket connections (serve).
  let connections: Gauge?
  /// Items picked on the search page (serve).
  let picks: Counter?
  /// Keystrokes read but not yet acknowledged, per shard (worker).
  let shardPending: MetricFamily<Gauge>?
  /// Shards this worker holds (worker).
  let shardsHeld: Gauge?

  /// The upper bounds of the search duration histogram, in seconds: an answer at once (the
  /// catalog, the cache) lands in the first buckets, a network round trip in the middle ones.
  static let searchBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

  // The names are constants checked by the tests: registering them cannot fail.
  init(role: Role, registry: MetricsRegistry = MetricsRegistry()) throws(MetricsError) {
    self.registry = registry
    keystrokes = try registry.counter("stream_search_keystrokes_total", help: "Keystrokes that entered the pipeline.")
    searches = try registry.counter("stream_search_searches_total", help: "Searches started.")
    results = try registry.counter("stream_search_results_total", help: "Searches answered with results.")
    cancelled = try registry.counters(
      "stream_search_cancelled_total", help: "Searches abandoned before their answer, by reason.", labels: ["reason"])
    for reason in CancelReason.allCases { _ = cancelled.labels(reason.rawValue) }
    errors = try registry.counter("stream_search_errors_total", help: "Searches that ended in an error.")
    cacheHits = try registry.counter(
      "stream_search_cache_hits_total", help: "Categories answered from the memory cache.")
    requests = try registry.counter("stream_search_requests_total", help: "Requests sent to the source.")
    searchSeconds = try registry.histogram(
      "stream_search_search_seconds", help: "Time from a search's start to its results.", buckets: Self.searchBuckets)
    switch role {
    case .serve:
      connections = try registry.gauge("stream_search_connections", help: "Open WebSocket connections.")
      picks = try registry.counter("stream_search_picks_total", help: "Items chosen on the search page.")
      shardPending = nil
      shardsHeld = nil
    case .worker:
      connections = nil
      picks = nil
      shardPending = try registry.gauges(
        "stream_search_shard_pending", help: "Keystrokes read from a shard and not yet acknowledged.",
        labels: ["shard"])
      shardsHeld = try registry.gauge("stream_search_shards_held", help: "Shards this worker holds.")
    }
  }

  func observe(_ observation: PipelineObservation) {
    switch observation {
    case .keystroke: keystrokes.increment()
    case .requestSent: requests.increment()
    case .cacheHit: cacheHits.increment()
    case .searchStarted: searches.increment()
    case .searchFinished(_, _, _, let elapsed):
      results.increment()
      searchSeconds.observe(elapsed)
    case .searchFailed: errors.increment()
    case .searchCancelled(_, _, let reason): cancelled.labels(reason.rawValue)?.increment()
    case .sessionForgotten: break
    }
  }
}
