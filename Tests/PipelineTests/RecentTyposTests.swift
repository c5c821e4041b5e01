// The typo walks' memo: the last `capacity` answers are kept, by word, mode and categories, and a
// new one lets only the oldest go.
import Testing

@testable import Catalog
@testable import Pipeline

struct RecentTyposTests {
  static func word(_ number: Int) -> FoldedWord { [UInt32(number), 7] }

  @Test func answersAreKeptByWordModeAndCategories() {
    var recent = RecentTypos<Int>()
    recent.keep(1, for: Self.word(1), prefix: false, categories: 0b1)
    #expect(recent.answer(for: Self.word(1), prefix: false, categories: 0b1) == 1)
    #expect(recent.answer(for: Self.word(1), prefix: true, categories: 0b1) == nil)
    #expect(recent.answer(for: Self.word(1), prefix: false, categories: 0b11) == nil)
    #expect(recent.answer(for: Self.word(2), prefix: false, categories: 0b1) == nil)
  }

  @Test func aNewAnswerLetsOnlyTheOldestGoOnceFull() {
    let capacity = RecentTypos<Int>.capacity
    var recent = RecentTypos<Int>()
    for number in 0..<capacity { recent.keep(number, for: Self.word(number), prefix: true, categories: 1) }
    // Kept again: not a second slot, so nothing is let go.
    recent.keep(0, for: Self.word(0), prefix: true, categories: 1)
    #expect(recent.answer(for: Self.word(0), prefix: true, categories: 1) == 0)
    recent.keep(capacity, for: Self.word(capacity), prefix: true, categories: 1)
    #expect(recent.answer(for: Self.word(0), prefix: true, categories: 1) == nil, "the oldest goes")
    #expect(recent.answer(for: Self.word(1), prefix: true, categories: 1) == 1)
    #expect(recent.answer(for: Self.word(capacity), prefix: true, categories: 1) == capacity)
    recent.keep(capacity + 1, for: Self.word(capacity + 1), prefix: true, categories: 1)
    #expect(recent.answer(for: Self.word(1), prefix: true, categories: 1) == nil, "then the next oldest")
    #expect(recent.answer(for: Self.word(2), prefix: true, categories: 1) == 2)
  }
}
