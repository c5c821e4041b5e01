// The Prometheus text format, byte for byte: what a scraper parses must not depend on luck.
import Metrics
import Testing

@Suite struct ExpositionTests {
  @Test func countersGaugesAndAHistogramAreWrittenByteForByte() throws {
    let registry = MetricsRegistry()
    let requests = try registry.counter("app_requests_total", help: "Requests sent.")
    let open = try registry.gauge("app_connections", help: "Open connections.")
    let latency = try registry.histogram("app_seconds", help: "Latency.", buckets: [0.5, 0.005, 1, 0.005, .infinity])
    requests.increment()
    requests.increment(by: 2)
    requests.increment(by: -5)
    open.set(7)
    open.add(-2)
    latency.observe(.milliseconds(2))
    latency.observe(.milliseconds(5))
    latency.observe(.milliseconds(700))
    latency.observe(.seconds(3))
    latency.observe(.milliseconds(-1))
    #expect(
      registry.exposition() == """
        # HELP app_requests_total Requests sent.
        # TYPE app_requests_total counter
        app_requests_total 3
        # HELP app_connections Open connections.
        # TYPE app_connections gauge
        app_connections 5
        # HELP app_seconds Latency.
        # TYPE app_seconds histogram
        app_seconds_bucket{le="0.005"} 3
        app_seconds_bucket{le="0.5"} 3
        app_seconds_bucket{le="1"} 4
        app_seconds_bucket{le="+Inf"} 5
        app_seconds_sum 3.707
        app_seconds_count 5

        """)
  }

  @Test func labelValuesAndHelpAreEscaped() throws {
    let registry = MetricsRegistry()
    let pending = try registry.gauges("app_pending", help: "Back\\slash and\nline feed.", labels: ["shard", "name"])
    pending.labels("1", "quote \" back \\ feed \n end")?.set(4)
    pending.labels("0", "plain")?.set(2)
    #expect(pending.labels("only one") == nil)
    #expect(
      registry.exposition() == """
        # HELP app_pending Back\\\\slash and\\nline feed.
        # TYPE app_pending gauge
        app_pending{shard="0",name="plain"} 2
        app_pending{shard="1",name="quote \\" back \\\\ feed \\n end"} 4

        """)
  }

  @Test func aRemovedMemberIsNoLongerExposed() throws {
    let registry = MetricsRegistry()
    let cancelled = try registry.counters("app_cancelled_total", help: "Cancelled.", labels: ["reason"])
    cancelled.labels("superseded")?.increment()
    cancelled.labels("cleared")?.increment(by: 2)
    cancelled.remove(["cleared"])
    #expect(
      registry.exposition() == """
        # HELP app_cancelled_total Cancelled.
        # TYPE app_cancelled_total counter
        app_cancelled_total{reason="superseded"} 1

        """)
  }

  @Test func badNamesAndRepeatsAreRefused() throws {
    let registry = MetricsRegistry()
    _ = try registry.counter("app_total", help: "")
    #expect(throws: MetricsError.duplicate("app_total")) { try registry.gauge("app_total", help: "") }
    #expect(throws: MetricsError.invalidName("9lives")) { try registry.counter("9lives", help: "") }
    #expect(throws: MetricsError.invalidName("a-b")) { try registry.counter("a-b", help: "") }
    #expect(throws: MetricsError.invalidName("")) { try registry.counter("", help: "") }
    #expect(throws: MetricsError.invalidLabelName("__reserved")) {
      try registry.counters("app_x_total", help: "", labels: ["__reserved"])
    }
    #expect(throws: MetricsError.invalidLabelName("le-bad")) {
      try registry.gauges("app_y", help: "", labels: ["le-bad"])
    }
    #expect(MetricsRegistry.contentType == "text/plain; version=0.0.4; charset=utf-8")
  }

  @Test func anEmptyRegistryExposesNothing() {
    #expect(MetricsRegistry().exposition() == "")
  }
}
