// A query word's split tries only the starts of the word that are words, and stops at the first
// start no word begins with: the same split as trying every cut, found with far fewer look-ups.
import Testing

@testable import Catalog
@testable import Pipeline

@Suite struct CatalogRespellingSplitTests {
  static let texts: [String] = [
    "an", "and", "as", "ash", "ashes", "it", "its", "itself", "of", "off", "offer", "sh", "shake",
    "shaker", "shakes", "star", "stars", "starwars", "war", "wars", "warsaw", "to", "tom", "tomb",
  ]
  static let dictionary: [FoldedWord] = texts.map(folded)

  static func folded(_ text: String) -> FoldedWord { text.unicodeScalars.map(\.value) }

  static func isWord(_ word: FoldedWord) -> Bool { dictionary.contains(word) }
  static func startsWord(_ word: FoldedWord) -> Bool { dictionary.contains { $0.starts(with: word) } }

  /// Every cut, longest first part first, as the split is defined.
  static func everyCut(_ word: FoldedWord, last: Bool) -> [FoldedWord]? {
    let minimum = CatalogQuery.respelledPartMinimum
    let ends = { (word: FoldedWord) -> Bool in last ? Self.startsWord(word) : Self.isWord(word) }
    guard word.count >= 2 * minimum else { return nil }
    for cut in stride(from: word.count - minimum, through: minimum, by: -1)
    where isWord(Array(word[..<cut])) && ends(Array(word[cut...])) {
      return [Array(word[..<cut]), Array(word[cut...])]
    }
    guard word.count >= 3 * minimum else { return nil }
    for cut in stride(from: word.count - 2 * minimum, through: minimum, by: -1) where isWord(Array(word[..<cut])) {
      for second in stride(from: word.count - minimum, through: cut + minimum, by: -1)
      where isWord(Array(word[cut..<second])) && ends(Array(word[second...])) {
        return [Array(word[..<cut]), Array(word[cut..<second]), Array(word[second...])]
      }
    }
    return nil
  }

  @Test func theSplitIsTheOneEveryCutFinds() {
    let words = [
      "shakeitoff", "starwars", "starwarsaw", "ashesto", "tombstars", "itsoffer", "shakesand", "andits", "warsawof",
      "ofanas", "starwa", "shakeit", "zzzz", "asas", "toto", "shshsh",
    ]
    for text in words {
      let word = Self.folded(text)
      for last in [false, true] {
        // The word alone is a query's last word; before "xx", one of its earlier words.
        let query =
          last
          ? CatalogQuery(words: [word], lastAsTyped: word)
          : CatalogQuery(words: [word, [0x78, 0x78]], lastAsTyped: [0x78, 0x78])
        let respelt = query.respellings(isWord: Self.isWord, startsWord: Self.startsWord)
        let expected = Self.everyCut(word, last: last)
        let split = respelt.first.map { last ? $0.words : Array($0.words.dropLast()) }
        #expect(split == expected, "\(text), last: \(last)")
      }
    }
  }
}
