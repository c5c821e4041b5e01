// A few recent answers of a pure look-up, kept by key: a term is searched again at every
// keystroke, and the parts of it that do not change while the last word is typed (its earlier
// words, their typos, the runs of them a partial answer tries) would otherwise be searched again.

/// The answers of the last `capacity` look-ups, by key.
///
/// A ring of slots with an index by key: each new answer takes the oldest slot, so keeping one
/// costs one hash look-up and at most one answer let go, never a sweep of many at once (which
/// would land on one unlucky query's latency).
struct RecentAnswers<Key: Hashable & Sendable, Answer: Sendable>: Sendable {
  /// How many answers are kept.
  let capacity: Int
  private var slots: [(key: Key, answer: Answer)] = []
  /// Where each kept key's slot is.
  private var slotOf: [Key: Int] = [:]
  /// The slot the next answer takes once every slot is in use: the oldest.
  private var oldest = 0

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The answer kept for `key`; nil when none is.
  func answer(for key: Key) -> Answer? {
    slotOf[key].map { slots[$0].answer }
  }

  /// Keeps `answer`, letting the oldest one go when every slot is in use.
  mutating func keep(_ answer: Answer, for key: Key) {
    if let slot = slotOf[key] {
      // Kept meanwhile (two threads looked up the same key): the answer is the same.
      slots[slot].answer = answer
      return
    }
    guard slots.count == capacity else {
      slotOf[key] = slots.count
      slots.append((key, answer))
      return
    }
    slotOf[slots[oldest].key] = nil
    slots[oldest] = (key, answer)
    slotOf[key] = oldest
    oldest = (oldest + 1) % capacity
  }
}
