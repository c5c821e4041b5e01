// The "signals" section: how fast a signal ends the release binary at each blocking point (the
// target: it exits within 100 ms). The tool is started and left waiting in the kernel exactly as
// the signal tests leave it (TestSupport's BlockingPoint); the figure is the time from kill(2)
// to this process seeing the exit, its own wake-up included, so it is an upper bound.
import Foundation
import TestSupport

/// Measures the "signals" section.
struct SignalSection {
  /// Signals sent at each blocking point (each to a fresh process).
  static let signalsPerPoint = 20

  func measure(into table: inout ResultTable) async throws {
    guard let binary = BinarySection.binary(for: "10 signals", into: &table) else { return }
    for point in BlockingPoint.allCases {
      let name = "signal → exit, blocked in \(point.rawValue), \(Self.signalsPerPoint) processes"
      let signal = point == .readingAStalledPipe ? SIGTERM : SIGINT
      let expected: Int32 = signal == SIGTERM ? 143 : 130
      var latencies: [Double] = []
      var wrongStatuses = 0
      for _ in 0..<Self.signalsPerPoint {
        let tool = try await point.start(URL(fileURLWithPath: binary))
        let (status, elapsed) = await tool.signal(signal)
        if status != expected { wrongStatuses += 1 }
        latencies.append(nanoseconds(elapsed) / 1e6)
      }
      let note =
        (signal == SIGTERM ? "SIGTERM" : "SIGINT")
        + (wrongStatuses == 0 ? ", every exit status \(expected)" : "; \(wrongStatuses) exits not \(expected)")
      table.append(
        ResultRow(
          section: "10 signals", name: name, unit: "ms", sample: Sample(latencies),
          target: "≤ 100", note: note))
    }
  }
}
