// A search term as the catalog matches it: its words after folding and equivalences, and its
// last word as typed, which a name may also start with while the word is still being typed.
import Pipeline

/// The words of one search term (`TextFolding`), ready to be matched.
struct CatalogQuery {
  /// The term's words with every equivalence applied (`TextFolding.words`).
  let words: [FoldedWord]
  /// The last word as typed, before equivalences: "guns n" is on its way to "guns n' roses" and
  /// to "guns nation" alike, so a name word may start with "n" as well as with "and".
  let lastAsTyped: FoldedWord

  init(_ term: String) {
    let typed = TextFolding.literalWords(term).words
    words = TextFolding.canonical(typed)
    lastAsTyped = typed.last ?? []
  }

  /// A query of `words` already folded, whose last word was typed as `lastAsTyped`.
  init(words: [FoldedWord], lastAsTyped: FoldedWord) {
    self.words = words
    self.lastAsTyped = lastAsTyped
  }

  /// Whether the term has no word at all (no letters or digits).
  var isEmpty: Bool { words.isEmpty }

  /// Whether `word` starts with query word `index` (for the last, with it as typed too).
  func word(_ index: Int, starts word: FoldedWord) -> Bool {
    word.starts(with: words[index]) || (index == words.count - 1 && word.starts(with: lastAsTyped))
  }
}
