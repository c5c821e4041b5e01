// The parts of building a catalog index: names' forms as word ids, and posting lists laid out flat
// (the one form every list of the index takes). Both keep their working state in a
// few flat arrays, because whatever the build allocates at its peak stays in the process's
// resident memory afterwards.
import Pipeline

/// The folded forms of every distinct name of a store (`TextFolding.forms`): one sorted
/// dictionary of words, and per name the word ids of each of its forms. Made once per catalog and
/// shared by the indexes of its categories. The built-in catalog carries them ready-made (the
/// converter folds its names, and adds the curated aliases of some as further forms), so start-up
/// folds nothing; other stores fold their names with `TextFolding`.
struct FoldedNames {
  /// Every distinct word, sorted by scalar values.
  let words: [FoldedWord]
  /// Name `n`'s forms are numbered `formStart[n] ..< formStart[n + 1]`.
  let formStart: [Int32]
  /// Form `f`'s word ids are `tokens[formBounds[f] ..< formBounds[f + 1]]`.
  let formBounds: [Int32]
  let tokens: [Int32]

  init(words: [FoldedWord], formStart: [Int32], formBounds: [Int32], tokens: [Int32]) {
    self.words = words
    self.formStart = formStart
    self.formBounds = formBounds
    self.tokens = tokens
  }

  /// Folds `names` with `TextFolding.forms`, numbering the distinct words in dictionary order.
  init(folding names: some Sequence<String>) {
    var interner = Interner<FoldedWord>()
    var formStart: [Int32] = [0]
    var formBounds: [Int32] = [0]
    var tokens: [Int32] = []
    for name in names {
      for form in TextFolding.forms(name) {
        for word in form { tokens.append(interner.id(of: word)) }
        formBounds.append(Int32(tokens.count))
      }
      formStart.append(Int32(formBounds.count - 1))
    }
    let unsorted = interner.values
    let order = unsorted.indices.sorted { unsorted[$0].lexicographicallyPrecedes(unsorted[$1]) }
    var newId = [Int32](repeating: 0, count: order.count)
    for (position, oldId) in order.enumerated() { newId[oldId] = Int32(position) }
    for position in tokens.indices { tokens[position] = newId[Int(tokens[position])] }
    self.init(words: order.map { unsorted[$0] }, formStart: formStart, formBounds: formBounds, tokens: tokens)
  }

  /// The numbers of the forms of the name numbered `name`; the first is its own words.
  func forms(ofName name: Int32) -> Range<Int> {
    Int(formStart[Int(name)])..<Int(formStart[Int(name) + 1])
  }

  /// The word ids of form `form`.
  func words(ofForm form: Int) -> ArraySlice<Int32> {
    tokens[Int(formBounds[form])..<Int(formBounds[form + 1])]
  }

  /// The word ids of the first form of the name numbered `name`: its own words.
  func words(ofName name: Int32) -> ArraySlice<Int32> {
    let forms = forms(ofName: name)
    return forms.isEmpty ? [] : words(ofForm: forms.lowerBound)
  }
}

/// Per word, the ascending ranks that contain it, laid out flat: word `w`'s list is
/// `items[start[w] ..< start[w + 1]]`. The index's word postings and name starts both take this
/// form, so one merge and one count serve them.
///
/// Built in two passes over the items, one counting and one filling, so nothing but the
/// result and one array of the word count is allocated.
struct PostingLists: Sendable {
  let start: IndexTable<Int32>
  let items: IndexTable<Int32>

  /// Lists already laid out (the built-in catalog's, built by its converter).
  init(start: IndexTable<Int32>, items: IndexTable<Int32>) {
    self.start = start
    self.items = items
  }

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
    self.start = IndexTable(start)
    self.items = IndexTable(items)
  }

  /// How many ranks the lists of `ids` (consecutive word ids) hold together, with repeats.
  func count(in ids: Range<Int>) -> Int {
    ids.isEmpty ? 0 : Int(start[ids.upperBound] - start[ids.lowerBound])
  }

  /// How many ranks the lists of `words` hold together, with repeats.
  func count(of words: CatalogWordSet) -> Int {
    words.ranges.reduce(0) { $0 + count(in: $1) }
  }
}
