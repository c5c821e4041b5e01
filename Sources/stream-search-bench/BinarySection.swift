// Section 3: the stream-search binary end to end. The command-line tool is being wired
// elsewhere; until it is, this section only says where its figures will be.
import Foundation

/// Measures section 3 (a placeholder until the binary can replay).
struct BinarySection {
  func measure(into table: inout ResultTable) {
    let binary = TraceFile.packageRoot().appendingPathComponent(".build/release/stream-search").path
    let present = FileManager.default.isExecutableFile(atPath: binary)
    table.append(ResultRow(
      section: "3 binary", name: "stream-search --replay, 200,000 keystrokes", unit: "keystrokes/s", sample: nil,
      target: "≥ 500,000", anchor: "jq -c . ≈ 570,000 lines/s",
      note: "binary: see docs/performance.md" + (present ? "" : " (no .build/release/stream-search yet)")))
    table.append(ResultRow(
      section: "3 binary", name: "peak RSS, 10,000,000 lines through a pipe", unit: "MB", sample: nil,
      target: "≤ 32, flat", note: "binary: see docs/performance.md"))
  }
}
