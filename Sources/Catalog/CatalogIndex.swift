// The search index of one category of the offline catalog, built once at start-up so that a
// query touches only the dictionary words and posting lists it needs, never every item.
import Pipeline
import Synchronization

/// An immutable index over items: the forms of their names as word ids, a sorted word dictionary
/// with posting lists, and its words' place in the catalog's dictionary for the typo search.
///
/// Items are stored in *rank order* — popularity descending, then id ascending — and referred
/// to by their position ("rank"). Posting lists hold ranks in ascending order, so walking them
/// in order visits items best first and a search can stop as soon as it has enough.
final class CatalogIndex: Sendable {
  /// Where the items are; the index refers to them by rank and keeps only their positions here.
  let store: any CatalogItemStore
  /// Rank → the item's position in `store`.
  let positions: IndexTable<UInt32>
  /// Every distinct folded word of the names, sorted by scalar values; a word id is a position
  /// here, so all words with a given prefix form one contiguous range of ids.
  let words: IndexWords
  /// Word id → the ranks whose names contain it, in any form.
  let postings: PostingLists
  /// Word id → the ranks with a form of a primary name *starting* with it.
  let nameStarts: PostingLists
  /// Word id → the ranks with a form of a primary name *ending* with it: with `nameStarts`, the
  /// exact-name tier walks the shorter list ("the" starts thousands of names and ends few).
  let nameEnds: PostingLists
  /// The forms of the names of rank `r` are the entries `entries[r] ..< entries[r + 1]`, those of
  /// its primary names before `secondaryEntries[r]`; entry `e`'s word ids are
  /// `tokens[entryBounds[e] ..< entryBounds[e + 1]]`.
  let entries: IndexTable<Int32>
  let secondaryEntries: IndexTable<Int32>
  let entryBounds: IndexTable<Int32>
  let tokens: IndexTable<Int32>
  /// Rank → a 64-bit summary of its words (see `wordBit`): a query word none of whose words'
  /// bits are set cannot match the item, which rules out most candidates with one AND.
  let itemWordBits: IndexTable<UInt64>
  /// The catalog's typo search, shared by its indexes, this index's bit in its sets of
  /// categories (bit `n` for the catalog's index `n`), and per word of this index its id in the
  /// catalog's dictionary (ascending: a subset of a sorted dictionary stays sorted), which maps
  /// the catalog's runs of word ids to this index's.
  let typoSearch: CatalogTypoSearch
  let typoCategory: UInt32
  let catalogWords: IndexTable<Int32>
  /// The last typo searches' answers (see `typos(of:prefix:)`).
  let recentTypos = Mutex(RecentTypos<CatalogWordSet>())
  /// The last answers for parts of a query that a partial answer tried (see
  /// `partialSearch(_:limit:categories:)`).
  let recentParts = Mutex(RecentAnswers<PartOfQuery, TieredRanks>(capacity: 1024))
  /// The last query words' splits (see `rankedSearch(_:limit:categories:)`).
  let recentSplits = Mutex(RecentAnswers<SplitWord, [FoldedWord]?>(capacity: 1024))

  /// An index whose arrays are already built (the built-in catalog's: `BuiltInCatalog.indexes`).
  init(
    store: any CatalogItemStore, positions: IndexTable<UInt32>, words: IndexWords, postings: PostingLists,
    nameStarts: PostingLists, nameEnds: PostingLists, entries: IndexTable<Int32>,
    secondaryEntries: IndexTable<Int32>, entryBounds: IndexTable<Int32>, tokens: IndexTable<Int32>,
    itemWordBits: IndexTable<UInt64>, typoSearch: CatalogTypoSearch, typoCategory: UInt32,
    catalogWords: IndexTable<Int32>
  ) {
    self.store = store
    self.positions = positions
    self.words = words
    self.postings = postings
    self.nameStarts = nameStarts
    self.nameEnds = nameEnds
    self.entries = entries
    self.secondaryEntries = secondaryEntries
    self.entryBounds = entryBounds
    self.tokens = tokens
    self.itemWordBits = itemWordBits
    self.typoSearch = typoSearch
    self.typoCategory = typoCategory
    self.catalogWords = catalogWords
  }

  /// Indexes the items of `store` at `positions` (any order; ties of popularity are broken by id),
  /// whose names are folded in `names` (`CatalogItemStore.foldedNames()`); an item's artist is a
  /// secondary name unless `artistIsPrimary` (`CatalogRanking.artistIsPrimary(in:)`). Typos are
  /// found by `typoSearch`, the search of `names.words` every index of the catalog shares, in
  /// whose trie this index's words carry `typoCategory`.
  convenience init(
    store: any CatalogItemStore, positions unordered: [UInt32], names: FoldedNames, artistIsPrimary: Bool,
    typoSearch: CatalogTypoSearch, typoCategory: UInt32
  ) {
    let positions = CatalogIndex.rankOrder(unordered, in: store)

    var tokens: [Int32] = []
    var entryBounds: [Int32] = [0]
    var entries: [Int32] = [0]
    var secondaryEntries: [Int32] = []
    entries.reserveCapacity(positions.count + 1)
    secondaryEntries.reserveCapacity(positions.count)
    func add(_ name: Int32) {
      guard name != CatalogItemNames.none else { return }
      for form in names.forms(ofName: name) {
        tokens.append(contentsOf: names.words(ofForm: form))
        entryBounds.append(Int32(tokens.count))
      }
    }
    for position in positions {
      let item = store.names(at: Int(position))
      add(item.track)
      // A podcast's collection is its title again: its forms once are enough.
      if item.collection != item.track { add(item.collection) }
      if artistIsPrimary { add(item.artist) }
      secondaryEntries.append(Int32(entryBounds.count - 1))
      if !artistIsPrimary { add(item.artist) }
      entries.append(Int32(entryBounds.count - 1))
    }
    // Only the words of these items, renumbered: a subset of a sorted dictionary stays sorted.
    var localId = [Int32](repeating: -1, count: names.words.count)
    for token in tokens { localId[Int(token)] = 0 }
    var words: [FoldedWord] = []
    var catalogWords: [Int32] = []
    for id in localId.indices where localId[id] == 0 {
      localId[id] = Int32(words.count)
      words.append(names.words[id])
      catalogWords.append(Int32(id))
    }
    for position in tokens.indices { tokens[position] = localId[Int(tokens[position])] }

    let allWords = { (rank: Int) in
      tokens[Int(entryBounds[Int(entries[rank])])..<Int(entryBounds[Int(entries[rank + 1])])]
    }
    self.init(
      store: store, positions: IndexTable(positions), words: IndexWords(words),
      postings: PostingLists(wordCount: words.count, rankCount: positions.count, words: allWords),
      nameStarts: CatalogIndex.nameEdges(
        tokens, entryBounds, entries, secondaryEntries, wordCount: words.count, last: false),
      nameEnds: CatalogIndex.nameEdges(
        tokens, entryBounds, entries, secondaryEntries, wordCount: words.count, last: true),
      entries: IndexTable(entries), secondaryEntries: IndexTable(secondaryEntries),
      entryBounds: IndexTable(entryBounds), tokens: IndexTable(tokens),
      itemWordBits: IndexTable(
        positions.indices.map { allWords($0).reduce(UInt64(0)) { $0 | CatalogIndex.wordBit($1) } }),
      typoSearch: typoSearch, typoCategory: typoCategory, catalogWords: IndexTable(catalogWords))
  }

  /// Word id → the ranks with a primary form whose first word (or with `last`, whose last word)
  /// it is.
  private static func nameEdges(
    _ tokens: [Int32], _ bounds: [Int32], _ entries: [Int32], _ secondary: [Int32], wordCount: Int, last: Bool
  ) -> PostingLists {
    var edges: [Int32] = []
    return PostingLists(wordCount: wordCount, rankCount: secondary.count) { rank in
      edges.removeAll(keepingCapacity: true)
      for entry in Int(entries[rank])..<Int(secondary[rank]) where bounds[entry] < bounds[entry + 1] {
        edges.append(tokens[Int(last ? bounds[entry + 1] - 1 : bounds[entry])])
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
}
