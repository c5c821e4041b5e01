// The typo search's answers for the words of recent searches, of an index or of the catalog's
// trie. A term is searched again at every keystroke, and its earlier words do not change while
// the last one is typed: "bohemian rh", "bohemian rha", … each need the typos of "bohemian"; a
// search asks each category in turn for the same words; and the terms people type recur, across
// sessions and whenever the search cache has let an answer go. A walk of the trie is the
// costliest step of a search, and its answer depends on the word alone, so recent ones are kept.

/// The answers of recent typo searches: at least the last `capacity`, at most twice as many.
///
/// Two generations, each a dictionary: answers are kept in the current one; when it is full it
/// becomes the previous one and the one before is dropped. An answer found in the previous
/// generation moves to the current one, so a word asked again and again is never dropped. This
/// is least-recently-used eviction to within a generation, at the cost of one hash look-up.
struct RecentTypos<Answer: Sendable>: Sendable {
  static var capacity: Int { 1024 }

  private struct Key: Hashable, Sendable {
    var word: FoldedWord
    var prefix: Bool
    var categories: UInt32
  }

  private var current: [Key: Answer] = [:]
  private var previous: [Key: Answer] = [:]

  /// The kept answer for `word` in the mode `prefix` for the search of `categories` (bit `n`:
  /// catalog index `n`); nil when none is kept.
  mutating func answer(for word: FoldedWord, prefix: Bool, categories: UInt32) -> Answer? {
    let key = Key(word: word, prefix: prefix, categories: categories)
    if let answer = current[key] { return answer }
    guard let answer = previous.removeValue(forKey: key) else { return nil }
    keep(answer, for: key)
    return answer
  }

  /// Keeps `answer`, starting a new generation when the current one is full.
  mutating func keep(_ answer: Answer, for word: FoldedWord, prefix: Bool, categories: UInt32) {
    keep(answer, for: Key(word: word, prefix: prefix, categories: categories))
  }

  private mutating func keep(_ answer: Answer, for key: Key) {
    if current.count >= Self.capacity {
      previous = current
      current = [:]
    }
    current[key] = answer
  }
}
