// The typo search of the index (a trie walked with `TypoAutomaton`) against the typo rule's
// definition (`CatalogRanking.isTypo`, a full edit-distance table per word), for random words
// over a small alphabet, where near misses of every kind are common, and for the built-in
// catalog's own words; a walk for some categories must find every word of theirs the rule
// defines.
import StreamsTesting
import TestSupport
import Testing

@testable import Catalog
@testable import Pipeline

@Suite struct CatalogTypoIndexTests {
  /// The letters of the random words: a–d, or with `mixed`, also a digit and letters outside
  /// a–z, some sorting before it ("A") and some after ("é", "日"), which the trie's letter sets
  /// hold apart from the others.
  private static let letters: [UInt32] = [0x61, 0x62, 0x63, 0x64]
  private static let mixedLetters: [UInt32] = [0x61, 0x62, 0x63, 0x31, 0x41, 0xE9, 0x65E5]

  private func word(_ random: inout SplitMix64, length: Int, mixed: Bool = false) -> FoldedWord {
    let letters = mixed ? Self.mixedLetters : Self.letters
    return (0..<length).map { _ in letters[random.below(letters.count)] }
  }

  /// A few edits of `word`: insertions, deletions, substitutions and swaps.
  private func edited(_ word: FoldedWord, _ random: inout SplitMix64, edits: Int, mixed: Bool = false) -> FoldedWord {
    let letters = (mixed ? Self.mixedLetters : Self.letters) + [0x65]
    var result = word
    for _ in 0..<edits {
      let position = result.isEmpty ? 0 : random.below(result.count)
      switch random.below(4) {
      case 0: result.insert(letters[random.below(letters.count)], at: position)
      case 1 where !result.isEmpty: result.remove(at: position)
      case 2 where position + 1 < result.count: result.swapAt(position, position + 1)
      default: if !result.isEmpty { result[position] = letters[random.below(letters.count)] }
      }
    }
    return result
  }

  /// The ids `typoMatches` finds for a search of `categories`, one by one.
  private func found(_ trie: WordTrie, _ query: FoldedWord, prefix: Bool, categories: UInt32 = 1) -> [Int] {
    let allowance = CatalogRanking.typoAllowance(forLength: query.count)
    return trie.typoMatches(of: query, allowance: allowance, prefix: prefix, categories: categories).flatMap {
      Int($0.lowerBound)..<Int($0.upperBound)
    }
  }

  /// The trie of `words`, all of category 0.
  private func trie(_ words: [FoldedWord]) -> WordTrie {
    WordTrie(words: words, categories: Array(repeating: 1, count: words.count))
  }

  private func defined(_ words: [FoldedWord], _ query: FoldedWord, prefix: Bool) -> [Int] {
    words.indices.filter { id in
      prefix ? CatalogRanking.isTypo(query, ofPrefixOf: words[id]) : CatalogRanking.isTypo(query, of: words[id])
    }
  }

  // Seconds of edit-distance tables in a debug build: on a thread of its own (OwnThread.running),
  // never on one of the few threads every other test's tasks run on.
  @Test(arguments: [false, true])
  func theTrieFindsExactlyTheWordsTheRuleDefines(prefix: Bool) async {
    let matched = await OwnThread.running { self.matchedOnRandomDictionaries(prefix: prefix) }
    #expect(matched > 600)
  }

  @Test(arguments: [false, true])
  func theTrieFindsExactlyTheWordsTheRuleDefinesWhateverTheLetters(prefix: Bool) async {
    let matched = await OwnThread.running {
      self.matchedOnRandomDictionaries(prefix: prefix, mixed: true, dictionaries: 30)
    }
    #expect(matched > 200)
  }

  /// Compares the trie with the definition on random dictionaries of 300 words, each word of
  /// some of four categories, searched for some of them (the trie may find words of the others
  /// beside: only those searched are compared, unless all are); returns how many words the
  /// definition matched.
  private func matchedOnRandomDictionaries(prefix: Bool, mixed: Bool = false, dictionaries: Int = 60) -> Int {
    var random = SplitMix64(seed: (prefix ? 11 : 12) + (mixed ? 2 : 0))
    var matched = 0
    for _ in 0..<dictionaries {
      let words = Array(Set((0..<300).map { _ in word(&random, length: 1 + random.below(11), mixed: mixed) })).sorted {
        $0.lexicographicallyPrecedes($1)
      }
      let categories = words.map { _ in UInt32(1 + random.below(15)) }
      let trie = WordTrie(words: words, categories: categories)
      for _ in 0..<20 {
        // Mostly near a word of the dictionary, so that both answers are common.
        let base = words[random.below(words.count)]
        let query =
          random.below(4) == 0
          ? word(&random, length: 4 + random.below(8), mixed: mixed)
          : edited(base, &random, edits: 1 + random.below(3), mixed: mixed)
        let searched: UInt32 = random.below(3) == 0 ? 0b1111 : UInt32(1 + random.below(15))
        let isSearched = { (id: Int) in categories[id] & searched != 0 }
        let expected = defined(words, query, prefix: prefix).filter(isSearched)
        let answer = found(trie, query, prefix: prefix, categories: searched)
        matched += expected.count
        #expect(
          (searched == 0b1111 ? answer : answer.filter(isSearched)) == expected,
          "\(String(String.UnicodeScalarView(query.compactMap(Unicode.Scalar.init)))) in \(searched)")
      }
    }
    return matched
  }

  /// The built-in catalog's prebuilt trie, searched for one category: every word of its index
  /// the rule defines is found.
  @Test(arguments: BuiltInCatalog.indexedCategories)
  func theTrieAgreesWithTheRuleOnTheCatalogsWords(category: Category) async throws {
    let index = try #require(BuiltInCatalog.indexes[category])
    let matched = await OwnThread.running { () -> Int in
      let words = BuiltInCatalog.shared.foldedNames().words
      let trie = BuiltInCatalog.typoSearch.trie
      let own = Set(index.catalogWords.values.map(Int.init))
      var random = SplitMix64(seed: 21)
      let longWords = own.sorted().map { words[$0] }.filter {
        $0.count >= 4 && $0.count <= 12 && $0.allSatisfy { $0 < 0x7B }
      }
      var matched = 0
      for _ in 0..<8 {
        let query = edited(longWords[random.below(longWords.count)], &random, edits: random.below(3))
        // Every word within typos of the query is within them of one of its starts (the whole
        // word is one: the same table, one more cell read), so the words of the first answer
        // are the only ones the second can hold: each word's table is filled once, not twice.
        let ofStarts = defined(words, query, prefix: true).filter(own.contains)
        let ofWholeWords = ofStarts.filter { CatalogRanking.isTypo(query, of: words[$0]) }
        matched += ofStarts.count + ofWholeWords.count
        let categories = index.typoCategory
        #expect(found(trie, query, prefix: true, categories: categories).filter(own.contains) == ofStarts)
        #expect(found(trie, query, prefix: false, categories: categories).filter(own.contains) == ofWholeWords)
      }
      return matched
    }
    #expect(matched > 10)
  }

  @Test func aTypoInTheFirstLetterCountsButTwoAmongTheFirstThreeDoNot() {
    let words = ["interstellar", "lizzo"].map(TextFolding.ascii).sorted { $0.lexicographicallyPrecedes($1) }
    let trie = self.trie(words)
    let ascii = TextFolding.ascii
    #expect(found(trie, ascii("kizzo"), prefix: false) == [1])
    #expect(found(trie, ascii("xnterstelar"), prefix: false) == [0])
    #expect(found(trie, ascii("xyterstellar"), prefix: false).isEmpty)
    #expect(found(trie, ascii("intxrstellax"), prefix: false) == [0])
    #expect(found(trie, ascii("lzo"), prefix: true).isEmpty, "three letters get no typo")
  }
}
