// The Prometheus text exposition format, version 0.0.4: `# HELP` and `# TYPE` lines, then one
// sample per line, label values quoted with `\`, `"` and line feeds escaped, `+Inf` spelled so.
// https://prometheus.io/docs/instrumenting/exposition_formats/

/// Writes registered metrics as Prometheus text.
struct PrometheusText {
  private(set) var output = ""

  mutating func append(_ metric: MetricsRegistry.Registered) {
    let name = metric.name
    output += "# HELP \(name) \(Self.escapedHelp(metric.help))\n"
    switch metric.entry {
    case .counter(let counter):
      output += "# TYPE \(name) counter\n"
      sample(name, [], Self.number(counter.count))
    case .gauge(let gauge):
      output += "# TYPE \(name) gauge\n"
      sample(name, [], Self.number(gauge.value))
    case .counters(let family):
      output += "# TYPE \(name) counter\n"
      for (values, counter) in family.sortedMembers {
        sample(name, Array(zip(family.labelNames, values)), Self.number(counter.count))
      }
    case .gauges(let family):
      output += "# TYPE \(name) gauge\n"
      for (values, gauge) in family.sortedMembers {
        sample(name, Array(zip(family.labelNames, values)), Self.number(gauge.value))
      }
    case .histogram(let histogram):
      output += "# TYPE \(name) histogram\n"
      let snapshot = histogram.snapshot
      for (bound, count) in zip(histogram.bounds, snapshot.cumulative) {
        sample(name + "_bucket", [("le", Self.number(bound))], Self.number(count))
      }
      sample(name + "_bucket", [("le", "+Inf")], Self.number(snapshot.count))
      sample(name + "_sum", [], Self.number(snapshot.sumSeconds))
      sample(name + "_count", [], Self.number(snapshot.count))
    }
  }

  private mutating func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
    output += name
    if !labels.isEmpty {
      output += "{"
      output += labels.map { "\($0.0)=\"\(Self.escapedLabelValue($0.1))\"" }.joined(separator: ",")
      output += "}"
    }
    output += " \(value)\n"
  }

  /// A HELP text: backslash and line feed escaped.
  static func escapedHelp(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// A label value: backslash, double quote and line feed escaped.
  static func escapedLabelValue(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  static func number(_ value: Int) -> String { String(value) }

  /// A float as Prometheus (Go's ParseFloat) reads it: whole numbers without a fraction, `+Inf`,
  /// `-Inf` and `NaN` spelled so, else Swift's shortest exact form ("0.005", "2.5e-05").
  static func number(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  static func isMetricName(_ name: String) -> Bool {
    guard let first = name.utf8.first, !isDigit(first) else { return false }
    return name.utf8.allSatisfy { isLetterOrUnderscore($0) || isDigit($0) || $0 == UInt8(ascii: ":") }
  }

  static func isLabelName(_ name: String) -> Bool {
    guard let first = name.utf8.first, !isDigit(first), !name.hasPrefix("__") else { return false }
    return name.utf8.allSatisfy { isLetterOrUnderscore($0) || isDigit($0) }
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private static func isLetterOrUnderscore(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || byte == UInt8(ascii: "_")
  }
}
