// The metrics of one process, registered once at start and exposed together: what `/metrics`
// answers. Registration order is exposition order, so a scrape reads the same way every time.
import Synchronization

/// Why a metric could not be registered.
public enum MetricsError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The name is not a Prometheus metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`).
  case invalidName(String)
  /// A label name is not a Prometheus label name (`[a-zA-Z_][a-zA-Z0-9_]*`, not starting `__`).
  case invalidLabelName(String)
  /// A metric of this name is registered already.
  case duplicate(String)

  /// One line saying what is wrong.
  public var description: String {
    switch self {
    case .invalidName(let name): "not a metric name: \"\(name)\""
    case .invalidLabelName(let name): "not a label name: \"\(name)\""
    case .duplicate(let name): "a metric named \"\(name)\" is registered already"
    }
  }
}

/// The metrics of a process, exposed in the Prometheus text format (version 0.0.4).
///
/// ```swift
/// let registry = MetricsRegistry()
/// let searches = try registry.counter("app_searches_total", help: "Searches started.")
/// searches.increment()
/// let body = registry.exposition()  // "# HELP app_searches_total Searches started.\n…"
/// ```
public final class MetricsRegistry: Sendable {
  /// The `Content-Type` of ``exposition()``.
  public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  enum Entry: Sendable {
    case counter(Counter)
    case gauge(Gauge)
    case histogram(Histogram)
    case counters(MetricFamily<Counter>)
    case gauges(MetricFamily<Gauge>)
  }

  struct Registered: Sendable {
    let name: String
    let help: String
    let entry: Entry
  }

  private let registered = Mutex<[Registered]>([])

  /// An empty registry.
  public init() {}

  /// Registers a counter.
  public func counter(_ name: String, help: String) throws(MetricsError) -> Counter {
    let counter = Counter()
    try register(name, help: help, .counter(counter))
    return counter
  }

  /// Registers a family of counters told apart by `labels`.
  public func counters(_ name: String, help: String, labels: [String]) throws(MetricsError) -> MetricFamily<Counter> {
    try checkLabels(labels)
    let family = MetricFamily(labelNames: labels) { Counter() }
    try register(name, help: help, .counters(family))
    return family
  }

  /// Registers a gauge.
  public func gauge(_ name: String, help: String) throws(MetricsError) -> Gauge {
    let gauge = Gauge()
    try register(name, help: help, .gauge(gauge))
    return gauge
  }

  /// Registers a family of gauges told apart by `labels`.
  public func gauges(_ name: String, help: String, labels: [String]) throws(MetricsError) -> MetricFamily<Gauge> {
    try checkLabels(labels)
    let family = MetricFamily(labelNames: labels) { Gauge() }
    try register(name, help: help, .gauges(family))
    return family
  }

  /// Registers a histogram of durations with `buckets` (upper bounds in seconds; sorted, and
  /// repeats and non-finite bounds dropped: `+Inf` is always there).
  public func histogram(_ name: String, help: String, buckets: [Double]) throws(MetricsError) -> Histogram {
    var bounds: [Double] = []
    for bound in buckets.sorted() where bound.isFinite && bound != bounds.last { bounds.append(bound) }
    let histogram = Histogram(bounds: bounds)
    try register(name, help: help, .histogram(histogram))
    return histogram
  }

  /// Every metric in the Prometheus text format 0.0.4, in registration order; each family's
  /// labelled members ordered by their label values.
  public func exposition() -> String {
    var text = PrometheusText()
    for metric in registered.withLock({ $0 }) { text.append(metric) }
    return text.output
  }

  private func register(_ name: String, help: String, _ entry: Entry) throws(MetricsError) {
    guard PrometheusText.isMetricName(name) else { throw .invalidName(name) }
    let added = registered.withLock { registered -> Bool in
      guard !registered.contains(where: { $0.name == name }) else { return false }
      registered.append(Registered(name: name, help: help, entry: entry))
      return true
    }
    guard added else { throw .duplicate(name) }
  }

  private func checkLabels(_ labels: [String]) throws(MetricsError) {
    for label in labels where !PrometheusText.isLabelName(label) { throw .invalidLabelName(label) }
  }
}
