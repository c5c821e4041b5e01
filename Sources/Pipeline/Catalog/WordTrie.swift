// The words of one catalog index as a trie, for the typo search: a query word's typos are found
// by walking the trie with its `TypoAutomaton`, leaving every branch as soon as no word below it
// can be within the allowance, so a search visits a few hundred letters, not every word.

/// A trie over a sorted dictionary, its nodes laid out in preorder in three flat arrays.
///
/// Preorder keeps each node's subtree contiguous, and in a sorted dictionary the words below a
/// node are a contiguous run of word ids: a node stores where its subtree ends and the first of
/// its words, so skipping a branch or taking all its words is one step.
struct WordTrie: Sendable {
  /// Per node, the letter on the edge into it (0 for the root).
  let letters: IndexTable<UInt32>
  /// Per node, the first node after its subtree.
  let ends: IndexTable<Int32>
  /// Per node, twice the id of the first word below it, plus one when a word ends at the node
  /// (that word is then the first); one more entry, twice the word count, closes the last run.
  let firstWords: IndexTable<Int32>
  /// The length of the longest word: the deepest path.
  let depth: Int

  /// A trie already laid out (the built-in catalog's, built by its converter).
  init(letters: IndexTable<UInt32>, ends: IndexTable<Int32>, firstWords: IndexTable<Int32>, depth: Int) {
    self.letters = letters
    self.ends = ends
    self.firstWords = firstWords
    self.depth = depth
  }

  /// The trie of `words`, which must be sorted and distinct.
  init(words: [FoldedWord]) {
    var letters: [UInt32] = [0]
    var ends: [Int32] = [0]
    var firstWords: [Int32] = [0]
    // The nodes on the path to the previous word, by depth (the root at depth 0).
    var path: [Int32] = [0]
    var previous: FoldedWord = []
    for (id, word) in words.enumerated() {
      var common = 0
      while common < previous.count, common < word.count, previous[common] == word[common] { common += 1 }
      while path.count > common + 1 { ends[Int(path.removeLast())] = Int32(letters.count) }
      for depth in common..<word.count {
        path.append(Int32(letters.count))
        letters.append(word[depth])
        ends.append(0)
        firstWords.append(Int32(2 * id))
      }
      firstWords[Int(path[path.count - 1])] |= 1
      previous = word
    }
    for node in path { ends[Int(node)] = Int32(letters.count) }
    firstWords.append(Int32(2 * words.count))
    self.init(
      letters: IndexTable(letters), ends: IndexTable(ends), firstWords: IndexTable(firstWords),
      depth: words.reduce(0) { max($0, $1.count) })
  }

  /// The ids of the words within `allowance` typos of `query` (`CatalogRanking.isTypo`), or with
  /// `prefix`, of whose start it is within the allowance (`isTypo(_:ofPrefixOf:)`), as ascending
  /// runs of ids; the words the query equals or starts are among them. None for an allowance of
  /// 0 or a query word too long for the automaton.
  func typoMatches(of query: FoldedWord, allowance: Int, prefix: Bool) -> [Range<Int32>] {
    TypoAutomaton.run(query, allowance: allowance) { walk($0, prefix: prefix) } ?? []
  }

  private func walk(_ automaton: TypoAutomaton, prefix: Bool) -> [Range<Int32>] {
    var found: [Range<Int32>] = []
    // A few hundred nodes are read per walk: the arrays are read without bounds checks, and
    // the path (one entry per letter of the deepest word) lives on the stack.
    let (letters, ends, firstWords) = (letters.buffer, ends.buffer, firstWords.buffer)
    withUnsafeTemporaryAllocation(of: PathEntry.self, capacity: depth + 1) { path in
      var top = 0
      let start = automaton.start
      path[0] = PathEntry(end: Int32(letters.count), state: start, only: automaton.onlyLetters(after: start))
      var node = 1
      while node < letters.count {
        while node >= Int(path[top].end) { top -= 1 }
        let end = Int(ends[node])
        let mask = automaton.mask(of: letters[node])
        // No edit left before the next query letter: a branch of any other letter is dead.
        let only = path[top].only
        if only != ~0 && mask & only == 0 {
          node = end
          continue
        }
        let state = automaton.reading(mask, in: path[top].state)
        if automaton.isDead(state) {
          node = end
          continue
        }
        let accepts = automaton.accepts(state)
        if prefix && accepts {
          found.append(firstWords[node] >> 1..<firstWords[end] >> 1)
          node = end
          continue
        }
        if accepts && firstWords[node] & 1 != 0 {
          let word = firstWords[node] >> 1
          found.append(word..<word + 1)
        }
        top += 1
        path[top] = PathEntry(end: Int32(end), state: state, only: automaton.onlyLetters(after: state))
        node += 1
      }
    }
    return found
  }

  /// A node on the path of the walk: the end of its subtree, the automaton's state there, and
  /// the letters its children need (`TypoAutomaton.onlyLetters(after:)`).
  private struct PathEntry {
    var end: Int32
    var state: TypoAutomaton.State
    var only: UInt64
  }
}
