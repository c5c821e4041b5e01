// The typo test's distance against the textbook one: a full optimal-string-alignment table,
// no band, no early exit, filled for every pair. Words come from a four-letter alphabet so that
// near pairs (one or two edits) are common, not only far ones.
import StreamsTesting
import Testing

@testable import Catalog
@testable import Pipeline

@Suite struct EditDistanceTests {
  /// The optimal-string-alignment distance, computed in full.
  private func reference(_ left: FoldedWord, _ right: FoldedWord) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: right.count + 1), count: left.count + 1)
    for row in 0...left.count { table[row][0] = row }
    for column in 0...right.count { table[0][column] = column }
    for row in stride(from: 1, through: left.count, by: 1) {
      for column in stride(from: 1, through: right.count, by: 1) {
        let cost = left[row - 1] == right[column - 1] ? 0 : 1
        table[row][column] = min(
          table[row - 1][column] + 1, table[row][column - 1] + 1, table[row - 1][column - 1] + cost)
        if row > 1, column > 1, left[row - 1] == right[column - 2], left[row - 2] == right[column - 1] {
          table[row][column] = min(table[row][column], table[row - 2][column - 2] + 1)
        }
      }
    }
    return table[left.count][right.count]
  }

  private func word(_ random: inout SplitMix64, length: Int) -> FoldedWord {
    (0..<length).map { _ in UInt32(0x61 + random.below(4)) }
  }

  @Test(arguments: [0, 1, 2, 3])
  func agreesWithTheFullTableForEveryPairAndBound(bound: Int) {
    var random = SplitMix64(seed: 2026 + UInt64(bound))
    var near = 0
    for _ in 0..<4_000 {
      let left = word(&random, length: random.below(10))
      var right = left
      // Up to five edits of `left`, so that both answers are common at every bound.
      for _ in 0..<random.below(6) {
        let position = right.isEmpty ? 0 : random.below(right.count)
        switch random.below(3) {
        case 0: right.insert(UInt32(0x61 + random.below(4)), at: position)
        case 1 where !right.isEmpty: right.remove(at: position)
        default: if !right.isEmpty { right[position] = UInt32(0x61 + random.below(4)) }
        }
      }
      let expected = reference(left, right) <= bound
      if expected { near += 1 }
      #expect(EditDistance.isWithin(bound, left, right) == expected, "\(left) \(right) within \(bound)")
    }
    // Both answers were exercised.
    #expect(near > 200 && near < 3_800, "\(near) of 4,000 within \(bound)")
  }

  @Test(arguments: [1, 2])
  func withPrefixTheQueryIsMatchedAgainstEveryStartOfTheWord(bound: Int) {
    var random = SplitMix64(seed: 3_000 + UInt64(bound))
    var near = 0
    for _ in 0..<2_000 {
      let left = word(&random, length: 1 + random.below(8))
      let right = word(&random, length: random.below(12))
      let expected = (0...right.count).contains { reference(left, Array(right.prefix($0))) <= bound }
      if expected { near += 1 }
      #expect(EditDistance.isWithin(bound, left, right, prefix: true) == expected, "\(left) \(right)")
    }
    #expect(near > 100 && near < 1_900, "\(near) of 2,000 within \(bound)")
  }

  @Test func editsBeforeTheLeadingLettersAreCountedApart() {
    let ascii = TextFolding.ascii
    // Two substitutions among the first three letters: within 2, but not with one allowed there.
    #expect(EditDistance.isWithin(2, ascii("xyterstellar"), ascii("interstellar")))
    #expect(!EditDistance.isWithin(2, ascii("xyterstellar"), ascii("interstellar"), leadingLetters: 3, leadingEdits: 1))
    #expect(EditDistance.isWithin(2, ascii("xnterstellax"), ascii("interstellar"), leadingLetters: 3, leadingEdits: 1))
  }

  @Test func aSwapOfNeighboursIsOneEdit() {
    let taylor = Array("taylor".unicodeScalars.map(\.value))
    let tyalor = Array("tyalor".unicodeScalars.map(\.value))
    #expect(EditDistance.isWithin(1, taylor, tyalor))
    #expect(!EditDistance.isWithin(0, taylor, tyalor))
  }
}
