// The "interactive" section: the interactive screen through a real pseudo-terminal. Measures the time from the
// debounce deadline to the redraw that shows the answer: each cycle replaces the field's text in
// one write (one key press of new text), then pauses until the screen shows that term's answer.
// The deadline is the write's instant plus the debounce; the redraw is when the reader saw the
// bytes of the status line naming the term.
import Foundation
import TestSupport

/// Measures the "interactive" section.
struct InteractiveSection {
  let options: BenchOptions

  /// Key-pause cycles measured, after ``warmUpCycles`` not measured.
  static let cycles = 100
  static let warmUpCycles = 10
  /// The `--debounce` the binary runs with, its default.
  static let debounce = Duration.milliseconds(300)

  func measure(into table: inout ResultTable) async throws {
    let binary = BinarySection.binaryPath
    let name = "debounce deadline → redraw, \(Self.cycles) key-pause cycles through a pty"
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      table.append(
        ResultRow(
          section: "8 interactive", name: name, unit: "", sample: nil,
          note: "skipped: no \(binary); build it with `swift build -c release --product stream-search`"))
      return
    }
    let process = try TerminalProcess(
      URL(fileURLWithPath: binary), arguments: ["--debounce", "300ms"],
      environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"])
    defer { process.close() }
    guard await process.wait(until: { Self.contains($0.terminal[...], "Type to search") }) != nil else {
      table.append(
        ResultRow(
          section: "8 interactive", name: name, unit: "", sample: nil,
          note: "failed: the screen never appeared"))
      return
    }
    var latencies: [Double] = []
    for cycle in 0..<(Self.warmUpCycles + Self.cycles) {
      let term = Self.term(cycle)
      let offset = process.snapshot.terminal.count
      let marker = "\"\(term)\": "
      let written = ContinuousClock.now
      process.type([0x15] + Array(term.utf8))  // Ctrl-U, then the new text: one read, one keystroke
      guard let redrawn = await process.wait(until: { Self.contains($0.terminal[offset...], marker) }) else {
        table.append(
          ResultRow(
            section: "8 interactive", name: name, unit: "", sample: nil,
            note: "failed: no answer for \(term) within 20 s"))
        return
      }
      if cycle >= Self.warmUpCycles {
        latencies.append(Self.milliseconds((written + Self.debounce).duration(to: redrawn)))
      }
    }
    process.type([0x03])
    _ = await process.waitForExit()
    let sorted = latencies.sorted()
    let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    let command = "stream-search (interactive, built-in catalog, --debounce 300ms)"
    table.append(
      ResultRow(
        section: "8 interactive", name: "\(name): p50 (median), min, max", unit: "ms",
        sample: Sample(latencies), note: command))
    table.append(ResultRow(section: "8 interactive", name: "the same, p99", unit: "ms", sample: Sample([p99])))
  }

  /// A new two-word term for each cycle, none repeated within 100 cycles.
  private static func term(_ cycle: Int) -> String {
    let words = ["taylor", "swift", "love", "story", "blank", "space", "shake", "it", "off", "red"]
    return words[cycle % words.count] + " " + words[(cycle / words.count) % words.count]
  }

  private static func contains(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
    let needle = Array(text.utf8)
    guard let first = needle.first, bytes.count >= needle.count else { return false }
    var index = bytes.startIndex
    while let found = bytes[index...].firstIndex(of: first) {
      if bytes[found...].starts(with: needle) { return true }
      index = found + 1
    }
    return false
  }

  private static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
  }
}
