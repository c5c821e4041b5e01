// The built-in catalog carries its names already folded (the converter folds them in Python):
// these tests check every shipped name against `TextFolding`, the one definition of folding.
import TestSupport
import Testing

@testable import Pipeline

// Both read and fold the whole built-in catalog, seconds in a debug build: on a thread of their own.
@Suite struct CatalogFoldedNamesTests {
  @Test func everyNameCarriesTheWordsTextFoldingGives() async {
    await OwnThread.running {
      let catalog = BuiltInCatalog.shared
      let folded = catalog.foldedNames()
      #expect(catalog.malformedLines == 0)
      #expect(folded.start.count == catalog.nameTable.count + 1)
      var disagreeing: [String] = []
      for name in catalog.nameTable.indices {
        let carried = folded.words(ofName: Int32(name)).map { folded.words[Int($0)] }
        if carried != TextFolding.words(catalog.name(name)) { disagreeing.append(catalog.name(name)) }
      }
      #expect(
        disagreeing.isEmpty, "build_catalog.py folds \(disagreeing.count) names otherwise: \(disagreeing.prefix(9))"
      )
    }
  }

  @Test func theDictionaryIsSortedAndDistinct() async {
    await OwnThread.running {
      let words = BuiltInCatalog.shared.foldedNames().words
      #expect(words.count > 10_000)
      #expect(zip(words, words.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
    }
  }

  @Test func foldingAStoresNamesGivesTheSameFormAsTheConverter() {
    let folded = FoldedNames(folding: ["Beyoncé Knowles", "", "Knowles"])
    let expected = ["beyonce", "knowles"].map { $0.unicodeScalars.map(\.value) }
    #expect(folded.words == expected)
    #expect(Array(folded.words(ofName: 0)) == [0, 1])
    #expect(folded.words(ofName: 1).isEmpty)
    #expect(Array(folded.words(ofName: 2)) == [1])
  }
}
