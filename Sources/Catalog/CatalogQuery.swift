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

  /// Whether `word` starts with query word `index` (for the last, with it as typed too); an
  /// initial (``isInitial(_:)``) must be the word itself.
  func word(_ index: Int, starts word: FoldedWord) -> Bool {
    if isInitial(index) { return word == words[index] }
    return word.starts(with: words[index]) || (index == words.count - 1 && word.starts(with: lastAsTyped))
  }

  /// Whether query word `index` is an initial: one letter or digit next to an "and", not the last
  /// word ("m&m", "r&b", "b & b"). It is a word of its own, as the name is written, not the start
  /// of any word: "M&M" is not "Mark … & Bruno Mars". The last word may still be on its way, so
  /// it is not an initial, and it is an "and" only as typed ("a n" is on its way to "a night").
  func isInitial(_ index: Int) -> Bool {
    let last = words.count - 1
    guard index < last, words[index].count == 1 else { return false }
    let nextIsAnd = words[index + 1] == TextFolding.and && (index + 1 < last || lastAsTyped == TextFolding.and)
    return nextIsAnd || (index > 0 && words[index - 1] == TextFolding.and)
  }
}
