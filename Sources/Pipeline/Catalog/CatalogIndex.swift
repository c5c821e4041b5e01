// The search index of one category of the offline catalog, built once at start-up so that a
// query touches only the dictionary words and posting lists it needs, never every item.

/// An immutable index over items: folded names, a sorted word dictionary with posting lists,
/// trigrams of the words for substring search and length buckets for fuzzy search.
///
/// Items are stored in *rank order* — popularity descending, then id ascending — and referred
/// to by their position ("rank"). Posting lists hold ranks in ascending order, so walking them
/// in order visits items best first and a search can stop as soon as it has enough.
final class CatalogIndex: Sendable {
  /// Where the items are; the index refers to them by rank and keeps only their positions here.
  let store: any CatalogItemStore
  /// Rank → the item's position in `store`.
  let positions: [UInt32]
  /// Every distinct folded word of the names, sorted by scalar values; a word id is a position
  /// here, so all words with a given prefix form one contiguous range of ids.
  let words: [FoldedWord]
  /// Word id → the ranks whose names contain it.
  let postings: PostingLists
  /// Word id → the ranks with a name *starting* with it.
  let nameStarts: PostingLists
  /// Word id → the ranks with a name *ending* with it: with `nameStarts`, the exact-name tier
  /// walks the shorter list ("the" starts thousands of names and ends few).
  let nameEnds: PostingLists
  /// Rank `r`'s names as word ids: name `j` (track, collection, artist) is
  /// `tokens[nameBounds[3r + j] ..< nameBounds[3r + j + 1]]`.
  let tokens: [Int32]
  let nameBounds: [Int32]
  /// Rank → a 64-bit summary of its words (see `wordBit`): a query word none of whose words'
  /// bits are set cannot match the item, which rules out most candidates with one AND.
  let itemWordBits: [UInt64]
  /// Three consecutive scalars → the ids of the words containing them, ascending.
  let trigrams: [UInt64: [Int32]]
  /// Word length in scalars → the words that long, for the typo scan.
  let wordsByLength: [WordsOfLength]

  /// The words of one length in dictionary order, with what the typo scan reads of each kept
  /// side by side: the scan walks one run of initials and masks in contiguous memory, and reads
  /// a word itself only for the few that pass the masks.
  struct WordsOfLength: Sendable {
    /// The words' ids, ascending.
    var ids: [Int32] = []
    /// Each word's first scalar; sorted, since the words are.
    var initials: [UInt32] = []
    /// Each word's character set (see `characterMask`), to rule out most words before
    /// computing an edit distance.
    var masks: [UInt64] = []
  }

  /// How many names of an item are indexed: track, collection, artist.
  static let namesPerItem = 3

  /// Indexes the items of `store` at `positions` (any order; ties of popularity are broken by id),
  /// whose names are folded in `names` (`CatalogItemStore.foldedNames()`).
  init(store: any CatalogItemStore, positions unordered: [UInt32], names: FoldedNames) {
    let positions = Self.rankOrder(unordered, in: store)
    self.store = store
    self.positions = positions

    var tokens: [Int32] = []
    var bounds: [Int32] = [0]
    bounds.reserveCapacity(Self.namesPerItem * positions.count + 1)
    func add(_ name: Int32) {
      if name != CatalogItemNames.none { tokens.append(contentsOf: names.words(ofName: name)) }
      bounds.append(Int32(tokens.count))
    }
    for position in positions {
      let item = store.names(at: Int(position))
      add(item.track)
      add(item.collection)
      add(item.artist)
    }
    // Only the words of these items, renumbered: a subset of a sorted dictionary stays sorted.
    var localId = [Int32](repeating: -1, count: names.words.count)
    for token in tokens { localId[Int(token)] = 0 }
    var words: [FoldedWord] = []
    for id in localId.indices where localId[id] == 0 {
      localId[id] = Int32(words.count)
      words.append(names.words[id])
    }
    for position in tokens.indices { tokens[position] = localId[Int(tokens[position])] }
    self.words = words
    self.tokens = tokens
    nameBounds = bounds

    postings = PostingLists(wordCount: words.count, rankCount: positions.count) { rank in
      tokens[Int(bounds[Self.namesPerItem * rank])..<Int(bounds[Self.namesPerItem * (rank + 1)])]
    }
    nameStarts = Self.nameEdges(tokens, bounds, wordCount: words.count, rankCount: positions.count, last: false)
    nameEnds = Self.nameEdges(tokens, bounds, wordCount: words.count, rankCount: positions.count, last: true)
    itemWordBits = positions.indices.map { rank in
      tokens[Int(bounds[Self.namesPerItem * rank])..<Int(bounds[Self.namesPerItem * (rank + 1)])]
        .reduce(UInt64(0)) { $0 | Self.wordBit($1) }
    }

    var trigrams: [UInt64: [Int32]] = [:]
    let longest = words.reduce(0) { max($0, $1.count) }
    var wordsByLength = Array(repeating: WordsOfLength(), count: longest + 1)
    for (id, word) in words.enumerated() {
      let wordId = Int32(id)
      wordsByLength[word.count].ids.append(wordId)
      wordsByLength[word.count].initials.append(word.first ?? 0)
      wordsByLength[word.count].masks.append(Self.characterMask(word))
      guard word.count >= 3 else { continue }
      for start in 0...(word.count - 3) {
        let key = Self.trigram(word, at: start)
        // A word repeating a trigram ("banana") is listed once.
        if trigrams[key]?.last != wordId {
          trigrams[key, default: []].append(wordId)
        }
      }
    }
    self.trigrams = trigrams
    self.wordsByLength = wordsByLength
  }

  /// Word id → the ranks with a name whose first word (or with `last`, whose last word) it is.
  private static func nameEdges(
    _ tokens: [Int32], _ bounds: [Int32], wordCount: Int, rankCount: Int, last: Bool
  ) -> PostingLists {
    var edges: [Int32] = []
    return PostingLists(wordCount: wordCount, rankCount: rankCount) { rank in
      edges.removeAll(keepingCapacity: true)
      for name in namesPerItem * rank..<namesPerItem * (rank + 1) where bounds[name] < bounds[name + 1] {
        edges.append(tokens[Int(last ? bounds[name + 1] - 1 : bounds[name])])
      }
      return edges[...]
    }
  }

  /// `positions` ordered by their items' popularity (highest first), then id (lowest first).
  /// The keys are read once into arrays: asking the store per comparison costs far more.
  private static func rankOrder(_ positions: [UInt32], in store: any CatalogItemStore) -> [UInt32] {
    let keys = positions.map { store.rankKey(at: Int($0)) }
    let popularities = keys.map(\.popularity)
    let ids = keys.map(\.id)
    let order = positions.indices.sorted { left, right in
      popularities[left] != popularities[right] ? popularities[left] > popularities[right] : ids[left] < ids[right]
    }
    return order.map { positions[$0] }
  }

  /// The bit standing for word `id` in `itemWordBits`: a multiplicative hash onto 64 bits, so
  /// neighbouring ids (words sharing a prefix) spread out.
  static func wordBit(_ id: Int32) -> UInt64 {
    1 << ((UInt64(UInt32(bitPattern: id)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
  }

  /// The three scalars of `word` from `start`, packed (21 bits each, the width of a scalar).
  static func trigram(_ word: FoldedWord, at start: Int) -> UInt64 {
    UInt64(word[start]) << 42 | UInt64(word[start + 1]) << 21 | UInt64(word[start + 2])
  }

  /// One bit per letter a–z and digit, the rest of Unicode hashed onto 28 more bits. An edit
  /// adds at most one character a word lacks, so with `k` edits at most `k` bits of each mask
  /// are missing from the other; hashing merges bits, which only lets more words through.
  static func characterMask(_ word: FoldedWord) -> UInt64 {
    var mask: UInt64 = 0
    for scalar in word {
      let bit: UInt32 =
        switch scalar {
        case 0x61...0x7A: scalar - 0x61
        case 0x30...0x39: 26 + scalar - 0x30
        default: 36 + scalar % 28
        }
      mask |= 1 << UInt64(bit)
    }
    return mask
  }
}
