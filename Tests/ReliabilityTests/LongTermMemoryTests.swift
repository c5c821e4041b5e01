// Terms at the length limit through the built binary: thousands of distinct ones searched in the
// catalog cost no more memory than two searched as often. Each is a single word too long for any
// typo to be found; kept by the catalog's memo of typo searches, each would hold kilobytes.
import Foundation
import StreamsTesting
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10)), .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
struct LongTermMemoryTests {
  static let terms = 4_000
  static let letters = 1_000

  /// Peak resident memory (kB) of a replay of `terms`, one search each (a second apart), with
  /// no cache: read once all but the last have ended, while it waits for more input.
  static func peakKilobytes(replaying terms: [String]) async throws -> Int {
    let tool = try RunningProcess(
      try toolBinary(), arguments: ["--replay", "--format", "jsonl", "--cache-size", "0"])
    let keys = terms.enumerated().map { RecordedKey(Int64($0.offset * 1_000), $0.element) }
    await tool.write(recording(keys))
    // The last term's search waits for time to move past its quiet period, which only a later
    // line or the end does: the one before it ends every search but that one. Bounded: a replay
    // that lost a line must fail the test, not hang it.
    let done = await tool.waitForLine(containing: #""seq":\#(2 * terms.count - 2),"#, within: hangBound)
    #expect(done, "the replay did not answer every term")
    let peak = try LoadTests.peakResidentKilobytes(of: tool.processIdentifier)
    tool.closeInput()
    #expect(await tool.waitForExit() == 0)
    return peak
  }

  @Test func distinctTermsAtTheLengthLimitCostNoMoreMemoryThanTwoRepeated() async throws {
    var random = SplitMix64(seed: 7)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    func term() -> String { String((0..<Self.letters).map { _ in letters[Int.random(in: 0..<26, using: &random)] }) }
    let distinct = (0..<Self.terms).map { _ in term() }
    // Two alternating, so that each is searched (the same term twice in a row is not).
    let repeated = (0..<Self.terms).map { distinct[$0 % 2] }
    let two = try await Self.peakKilobytes(replaying: repeated)
    let many = try await Self.peakKilobytes(replaying: distinct)
    // Kept in the memos (up to 2,048 words each, 4 kB apiece) they cost about 9 MB more; not
    // kept, under half a megabyte.
    #expect(many <= two + 4 * 1024, "\(Self.terms) distinct terms: \(many) kB; two repeated: \(two) kB")
  }
}
