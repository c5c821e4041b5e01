// The written-out fold table of the accented Latin and Greek blocks must say exactly what
// Foundation's canonical decomposition says, so folding is the same as if it were computed.
import Foundation
import Testing

@testable import Catalog
@testable import Pipeline

@Suite struct TextFoldingTableTests {
  @Test func accentedLettersFoldAsTheirDecompositionWithoutMarks() {
    var compared = 0
    for (first, lines) in TextFolding.accentedBlockFolds {
      for (offset, folded) in lines.joined().unicodeScalars.enumerated() {
        let value = first + UInt32(offset)
        guard let scalar = Unicode.Scalar(value) else {
          Issue.record("U+\(String(value, radix: 16)) is no scalar")
          continue
        }
        let properties = scalar.properties
        let isWordScalar =
          properties.isAlphabetic || properties.numericType != nil
          || [.nonspacingMark, .spacingMark, .enclosingMark].contains(properties.generalCategory)
        guard isWordScalar else {
          #expect(folded == "_", "U+\(String(value, radix: 16))")
          continue
        }
        var expected = ""
        for part in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
        where !(0x300...0x36F).contains(part.value) {
          expected.unicodeScalars.append(contentsOf: part.properties.lowercaseMapping.unicodeScalars)
        }
        #expect(String(folded) == expected, "U+\(String(value, radix: 16))")
        compared += 1
      }
    }
    #expect(compared == 1_001)
  }

  @Test func blocksCoverTheirWholeRanges() {
    let counts = TextFolding.accentedBlockFolds.map { ($0.first, $0.folds.joined().unicodeScalars.count) }
    #expect(counts.map(\.0) == [0xC0, 0x370, 0x1E00])
    #expect(counts.map(\.1) == [0x24F - 0xC0 + 1, 0x3FF - 0x370 + 1, 0x1FFF - 0x1E00 + 1])
  }

  @Test func foldingIgnoresAccentsAndKeepsSpecialFolds() {
    #expect(
      TextFolding.words("Beyoncé Sigur Rós ΆΈΉ Ærø Straße") == [
        Array("beyonce".unicodeScalars.map(\.value)), Array("sigur".unicodeScalars.map(\.value)),
        Array("ros".unicodeScalars.map(\.value)), Array("αεη".unicodeScalars.map(\.value)),
        Array("aero".unicodeScalars.map(\.value)), Array("strasse".unicodeScalars.map(\.value)),
      ])
  }
}
