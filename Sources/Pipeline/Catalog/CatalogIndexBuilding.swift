// The parts of building a catalog index: folding names to word ids, and laying out posting
// lists flat (the one form every list of the index takes). Both keep their working state in a
// few flat arrays, because whatever the build allocates at its peak stays in the process's
// resident memory afterwards.

/// Folds names to words and gives every distinct word an id. Each distinct name of the store
/// (an artist shared by a hundred songs) is folded once; its word ids are kept in one flat
/// array and copied for every item that has it.
struct NameTokenizer {
  private let store: any CatalogItemStore
  /// The distinct words in first-seen order; a word's id here is its id until sorting.
  private var words = Interner<FoldedWord>()
  /// Name number → where its word ids start in `nameTokens`; -1 until the name is first seen.
  private var nameStart: [Int32]
  /// Name number → how many words it has.
  private var nameLength: [Int32]
  private var nameTokens: [Int32] = []
  /// The word ids of every name added, one name after the other.
  private(set) var tokens: [Int32] = []
  /// Where each added name's tokens start; one more entry than names.
  private(set) var bounds: [Int32] = [0]

  init(store: any CatalogItemStore) {
    self.store = store
    nameStart = Array(repeating: -1, count: store.nameCount)
    nameLength = Array(repeating: 0, count: store.nameCount)
  }

  /// Appends the words of the store's name numbered `name` (none for `CatalogItemNames.none`).
  mutating func add(_ name: Int32) {
    if name != CatalogItemNames.none {
      let number = Int(name)
      if nameStart[number] < 0 { fold(number) }
      let start = Int(nameStart[number])
      tokens.append(contentsOf: nameTokens[start..<start + Int(nameLength[number])])
    }
    bounds.append(Int32(tokens.count))
  }

  private mutating func fold(_ number: Int) {
    nameStart[number] = Int32(nameTokens.count)
    var length: Int32 = 0
    for word in TextFolding.words(store.name(number)) {
      nameTokens.append(words.id(of: word))
      length += 1
    }
    nameLength[number] = length
  }

  /// The words sorted by scalar values, and `tokens` renumbered to match; renumbered in place
  /// (this tokenizer's `tokens` are left empty) rather than copied, to keep the build's peak low.
  mutating func takeSortedDictionary() -> (words: [FoldedWord], tokens: [Int32]) {
    let wordsInOrder = words.values
    let order = wordsInOrder.indices.sorted { wordsInOrder[$0].lexicographicallyPrecedes(wordsInOrder[$1]) }
    var newId = [Int32](repeating: 0, count: order.count)
    for (position, oldId) in order.enumerated() {
      newId[oldId] = Int32(position)
    }
    var renumbered = tokens
    tokens = []
    for position in renumbered.indices {
      renumbered[position] = newId[Int(renumbered[position])]
    }
    return (order.map { wordsInOrder[$0] }, renumbered)
  }
}

/// Per word, the ascending ranks that contain it, laid out flat: word `w`'s list is
/// `items[start[w] ..< start[w + 1]]`. The index's word postings and name starts both take this
/// form, so one merge and one count serve them.
///
/// Built in two passes over the items, one counting and one filling, so nothing but the
/// result and one array of the word count is allocated.
struct PostingLists {
  let start: [Int32]
  let items: [Int32]

  /// The lists of `wordCount` words over `rankCount` ranks, where `words(rank)` gives the word
  /// ids of rank `rank` (repeats are listed once).
  init(wordCount: Int, rankCount: Int, words: (Int) -> ArraySlice<Int32>) {
    var lastRank = [Int32](repeating: -1, count: wordCount)
    var start = [Int32](repeating: 0, count: wordCount + 1)
    for rank in 0..<rankCount {
      for word in words(rank) where lastRank[Int(word)] != Int32(rank) {
        lastRank[Int(word)] = Int32(rank)
        start[Int(word) + 1] += 1
      }
    }
    for word in 0..<wordCount { start[word + 1] += start[word] }
    var next = start
    var items = [Int32](repeating: 0, count: Int(start[wordCount]))
    lastRank = [Int32](repeating: -1, count: wordCount)
    // Ranks come in ascending order, so each word's slots fill in ascending rank order.
    for rank in 0..<rankCount {
      for word in words(rank) where lastRank[Int(word)] != Int32(rank) {
        lastRank[Int(word)] = Int32(rank)
        items[Int(next[Int(word)])] = Int32(rank)
        next[Int(word)] += 1
      }
    }
    self.start = start
    self.items = items
  }

  /// How many ranks the lists of `ids` (consecutive word ids) hold together, with repeats.
  func count(in ids: Range<Int>) -> Int {
    ids.isEmpty ? 0 : Int(start[ids.upperBound] - start[ids.lowerBound])
  }
}
