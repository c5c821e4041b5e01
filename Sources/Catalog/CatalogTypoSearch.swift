// The typo search of a whole catalog, shared by its category indexes: a query word's typos are
// found once, in the trie of the catalog's dictionary, and each index keeps those of its own
// words. A search asks every category in turn for the same words, so one walk serves all three
// (the film dictionary alone is two thirds of the catalog's); the walk leaves the branches of
// the categories not asked, so a search of one category reads only its own words' branches.
import Pipeline
import Synchronization

/// The trie of a catalog's dictionary, and the answers of its last walks.
final class CatalogTypoSearch: Sendable {
  /// The catalog dictionary's words as a trie.
  let trie: WordTrie
  /// The last walks' answers, as ranges of the catalog's word ids.
  private let recent = Mutex(RecentTypos<[Range<Int32>]>())

  init(trie: WordTrie) {
    self.trie = trie
  }

  /// The catalog's word ids within `allowance` typos of `word` (with `prefix`, of a start of
  /// them), among them every such word of `categories` (bit `n`: catalog index `n`):
  /// `WordTrie.typoMatches(of:allowance:prefix:categories:)`, walked once while the same word is
  /// asked by each category of a search.
  func typos(of word: FoldedWord, allowance: Int, prefix: Bool, categories: UInt32) -> [Range<Int32>] {
    if let known = recent.withLock({ $0.answer(for: word, prefix: prefix, categories: categories) }) { return known }
    let found = trie.typoMatches(of: word, allowance: allowance, prefix: prefix, categories: categories)
    recent.withLock { $0.keep(found, for: word, prefix: prefix, categories: categories) }
    return found
  }
}
