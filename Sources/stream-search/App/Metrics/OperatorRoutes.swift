// `/healthz` and `/metrics`, the routes an operator points a probe and Prometheus at: the same on
// `serve` and on `worker --metrics`, so both answer them one way.
import Metrics
import WebServer

extension HTTPRoutes {
  /// Adds `GET /healthz`, 200 `ok` while `unavailability` says nothing and 503 with its reason when
  /// it does, and `GET /metrics`, `registry` in the Prometheus text format, after `beforeScrape`
  /// has brought the gauges read on demand up to date.
  mutating func addOperatorRoutes(
    metrics registry: MetricsRegistry, beforeScrape: @escaping @Sendable () -> Void = {},
    unavailability: @escaping @Sendable () -> String?
  ) {
    get("/healthz") { _ in
      guard let reason = unavailability() else { return .text("ok\n") }
      return .text("unavailable: \(reason)\n", status: 503)
    }
    get("/metrics") { _ in
      beforeScrape()
      var headers = HTTPHeaders()
      headers.set("Content-Type", MetricsRegistry.contentType)
      headers.set("Cache-Control", "no-store")
      return HTTPResponse(status: 200, headers: headers, body: Array(registry.exposition().utf8))
    }
  }
}
