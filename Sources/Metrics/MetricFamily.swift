// A metric with labels is a family of metrics, one per combination of label values, made when
// first asked for: `stream_search_shard_pending{shard="3"}`.
import Synchronization

/// The metrics of one name that differ by their label values, each made on first use.
public final class MetricFamily<Metric: Sendable>: Sendable {
  /// The label names, in the order values are given.
  public let labelNames: [String]
  private let make: @Sendable () -> Metric
  private let members = Mutex<[[String]: Metric]>([:])

  init(labelNames: [String], make: @escaping @Sendable () -> Metric) {
    self.labelNames = labelNames
    self.make = make
  }

  /// The metric for `values`, one per label name in order; nil when their number differs.
  public func labels(_ values: String...) -> Metric? {
    labels(values)
  }

  /// The metric for `values`, one per label name in order; nil when their number differs.
  public func labels(_ values: [String]) -> Metric? {
    guard values.count == labelNames.count else { return nil }
    return members.withLock { members in
      if let metric = members[values] { return metric }
      // `make` is the registry's own initialiser (no code from outside): an allocation.
      let metric = make()
      members[values] = metric
      return metric
    }
  }

  /// Forgets the metric for `values`: it is no longer exposed (a shard given up, say).
  public func remove(_ values: [String]) {
    _ = members.withLock { $0.removeValue(forKey: values) }
  }

  /// Every member with its label values, ordered by them, so that an exposition's lines come in
  /// the same order every time.
  var sortedMembers: [(values: [String], metric: Metric)] {
    members.withLock { $0.map { (values: $0.key, metric: $0.value) } }
      .sorted { $0.values.lexicographicallyPrecedes($1.values) }
  }
}
