// The typo search's answers for the last few query words, of an index or of the catalog's
// trie. A term is searched again at every keystroke, and its earlier words do not change while
// the last one is typed: "bohemian rh", "bohemian rha", … each need the typos of "bohemian"; and
// a search asks each category in turn for the same words, walked for the categories it asks.

/// The answers of the last `capacity` typo searches, most recent first.
struct RecentTypos<Answer: Sendable>: Sendable {
  static var capacity: Int { 8 }

  private var entries: [(word: FoldedWord, prefix: Bool, categories: UInt32, answer: Answer)] = []

  /// The kept answer for `word` in the mode `prefix` for the search of `categories` (bit `n`:
  /// catalog index `n`), made the most recent; nil when none is kept.
  mutating func answer(for word: FoldedWord, prefix: Bool, categories: UInt32) -> Answer? {
    guard
      let position = entries.firstIndex(where: {
        $0.prefix == prefix && $0.categories == categories && $0.word == word
      })
    else { return nil }
    let entry = entries.remove(at: position)
    entries.insert(entry, at: 0)
    return entry.answer
  }

  /// Keeps `answer` as the most recent, forgetting the oldest beyond `capacity`.
  mutating func keep(_ answer: Answer, for word: FoldedWord, prefix: Bool, categories: UInt32) {
    entries.insert((word, prefix, categories, answer), at: 0)
    if entries.count > Self.capacity { entries.removeLast() }
  }
}
