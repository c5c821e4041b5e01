// The built-in catalog carries its names already folded (the converter folds them in Python):
// these tests check every shipped name against `TextFolding`, the one definition of folding.
import TestSupport
import Testing

@testable import Catalog
@testable import Pipeline

// Both read and fold the whole built-in catalog, seconds in a debug build: on a thread of their own.
@Suite struct CatalogFoldedNamesTests {
  @Test func everyNameCarriesTheFormsTextFoldingGives() async {
    await OwnThread.running {
      let catalog = BuiltInCatalog.shared
      let folded = catalog.foldedNames()
      #expect(folded.formStart.count == catalog.nameCount + 1)
      var disagreeing: [String] = []
      var aliased = 0
      for name in 0..<catalog.nameCount {
        let carried = folded.forms(ofName: Int32(name)).map { form in
          folded.words(ofForm: form).map { folded.words[Int($0)] }
        }
        // The converter's forms first, then any curated alias's.
        let expected = TextFolding.forms(catalog.name(name))
        if Array(carried.prefix(expected.count)) != expected { disagreeing.append(catalog.name(name)) }
        if carried.count > expected.count { aliased += 1 }
      }
      #expect(aliased > 0, "no name carries an alias")
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
    let folded = FoldedNames(folding: ["Beyoncé Knowles", "", "Knowles", "The Knowles-Beyonce"])
    let expected = ["beyonce", "knowles", "knowlesbeyonce", "the"].map(TextFolding.ascii)
    #expect(folded.words == expected)
    #expect(Array(folded.words(ofName: 0)) == [0, 1])
    #expect(folded.words(ofName: 1).isEmpty)
    #expect(Array(folded.words(ofName: 2)) == [1])
    let forms = folded.forms(ofName: 3).map { Array(folded.words(ofForm: $0)) }
    #expect(forms == [[3, 1, 0], [3, 2], [1, 0], [2]])
  }
}
