// The typo search's answers for the words of recent searches, of an index or of the catalog's
// trie. A term is searched again at every keystroke, and its earlier words do not change while
// the last one is typed: "bohemian rh", "bohemian rha", … each need the typos of "bohemian"; a
// search asks each category in turn for the same words; and the terms people type recur, across
// sessions and whenever the search cache has let an answer go. A walk of the trie is the
// costliest step of a search, and its answer depends on the word alone, so recent ones are kept.
import Pipeline

/// The answers of the last `capacity` typo searches.
///
/// A ring of slots with an index by key: each new answer takes the oldest slot, so keeping one
/// costs one hash look-up and at most one answer let go, never a sweep of many at once (which
/// would land on one unlucky query's latency).
struct RecentTypos<Answer: Sendable>: Sendable {
  static var capacity: Int { 2048 }

  private struct Key: Hashable, Sendable {
    var word: FoldedWord
    var prefix: Bool
    var categories: UInt32
  }

  private var slots: [(key: Key, answer: Answer)] = []
  /// Where each kept key's slot is.
  private var slotOf: [Key: Int] = [:]
  /// The slot the next answer takes once every slot is in use: the oldest.
  private var oldest = 0

  /// The kept answer for `word` in the mode `prefix` for the search of `categories` (bit `n`:
  /// catalog index `n`); nil when none is kept.
  func answer(for word: FoldedWord, prefix: Bool, categories: UInt32) -> Answer? {
    slotOf[Key(word: word, prefix: prefix, categories: categories)].map { slots[$0].answer }
  }

  /// Keeps `answer`, letting the oldest one go when every slot is in use.
  mutating func keep(_ answer: Answer, for word: FoldedWord, prefix: Bool, categories: UInt32) {
    let key = Key(word: word, prefix: prefix, categories: categories)
    if let slot = slotOf[key] {
      // Kept meanwhile (two threads walked the same word): the answer is the same.
      slots[slot].answer = answer
      return
    }
    guard slots.count == Self.capacity else {
      slotOf[key] = slots.count
      slots.append((key, answer))
      return
    }
    slotOf[slots[oldest].key] = nil
    slots[oldest] = (key, answer)
    slotOf[key] = oldest
    oldest = (oldest + 1) % Self.capacity
  }
}
