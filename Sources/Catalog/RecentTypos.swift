// The typo search's answers for the words of recent searches, of an index or of the catalog's
// trie. A term is searched again at every keystroke, and its earlier words do not change while
// the last one is typed: "bohemian rh", "bohemian rha", … each need the typos of "bohemian"; a
// search asks each category in turn for the same words; and the terms people type recur, across
// sessions and whenever the search cache has let an answer go. A walk of the trie is the
// costliest step of a search, and its answer depends on the word alone, so recent ones are kept.
import Pipeline

/// The answers of the last `capacity` typo searches, by word, mode and categories.
struct RecentTypos<Answer: Sendable>: Sendable {
  static var capacity: Int { 2048 }

  private struct Key: Hashable, Sendable {
    var word: FoldedWord
    var prefix: Bool
    var categories: UInt32
  }

  private var kept = RecentAnswers<Key, Answer>(capacity: capacity)

  /// The kept answer for `word` in the mode `prefix` for the search of `categories` (bit `n`:
  /// catalog index `n`); nil when none is kept.
  func answer(for word: FoldedWord, prefix: Bool, categories: UInt32) -> Answer? {
    kept.answer(for: Key(word: word, prefix: prefix, categories: categories))
  }

  /// Keeps `answer`, letting the oldest one go when every slot is in use.
  mutating func keep(_ answer: Answer, for word: FoldedWord, prefix: Bool, categories: UInt32) {
    kept.keep(answer, for: Key(word: word, prefix: prefix, categories: categories))
  }
}
