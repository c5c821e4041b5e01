// The words of one catalog index as a trie, for the typo search: a query word's typos are found
// by walking the trie with its `TypoAutomaton`, leaving every branch as soon as no word below it
// can be within the allowance, so a search reads a few hundred letters, not every word.

import CatalogData
import Pipeline

/// A trie over a sorted dictionary, its nodes laid out breadth first in one flat array, each with
/// the set of letters of its children and of its whole branch.
///
/// Breadth first, a node's children are consecutive and sorted by letter, so the few children a
/// walk can still use are found without reading the others. In a sorted dictionary the words
/// below a node are a contiguous run of word ids, which the node stores. A node is one record of
/// 32 bytes: a walk reads everything it needs of a node, and of its siblings, from one or two
/// cache lines.
struct WordTrie: Sendable {
  /// One node: the letter on the edge into it (0 for the root), its first child (its children
  /// are `first_child` up to the next node's), twice the id of the first word below it plus one
  /// when a word ends at the node (that word is then the first), the end of the run of word ids
  /// below it, the letter bits (``letterBit(_:)``) of its children, with ``unranked`` when a
  /// child's letter outside the digits and a–z sorts before one inside, and those of every
  /// letter below it with the categories of the words below it (``categoryBits(_:)``).
  typealias Node = stream_search_trie_node

  /// The nodes breadth first, the root first, then one more whose `first_child` closes the last
  /// node's children.
  let nodes: IndexTable<Node>
  /// The length of the longest word: the deepest path.
  let depth: Int

  /// A trie already laid out (the built-in catalog's, built by its converter).
  init(nodes: IndexTable<Node>, depth: Int) {
    self.nodes = nodes
    self.depth = depth
  }

  /// The trie of `words`, which must be sorted and distinct; `categories[id]` has bit `n` set
  /// when word `id` is one of catalog index `n`'s (none when it is empty).
  init(words: [FoldedWord], categories: [UInt32]) {
    let depth = words.reduce(0) { max($0, $1.count) }
    // The nodes at depth d are the distinct starts of d letters, in dictionary order: each is
    // found at the first word that has it, where that word parts from the one before.
    var levels = [[Int32]](repeating: [], count: depth + 1)
    levels[0] = [0]
    var previous: FoldedWord = []
    for (id, word) in words.enumerated() {
      var common = 0
      while common < previous.count, common < word.count, previous[common] == word[common] { common += 1 }
      for length in stride(from: common + 1, through: word.count, by: 1) { levels[length].append(Int32(id)) }
      previous = word
    }
    var nodes: [Node] = []
    var next = 1
    for (length, level) in levels.enumerated() {
      let below = length < depth ? levels[length + 1] : []
      var child = 0
      for (position, first) in level.enumerated() {
        let word = words.isEmpty ? [] : words[Int(first)]
        // The children: the nodes one deeper before the next node's first word.
        let end = position + 1 < level.count ? level[position + 1] : Int32(words.count)
        let firstChild = child
        while child < below.count, below[child] < end { child += 1 }
        let letterSet = (firstChild..<child).lazy.map { words[Int(below[$0])][length] }
        nodes.append(
          Node(
            letter: length == 0 ? 0 : word[length - 1], first_child: Int32(next + firstChild),
            first_word: 2 * first + (!words.isEmpty && word.count == length ? 1 : 0), word_end: Int32(words.count),
            child_letters: Self.childLetterBits(letterSet), letters_below: 0))
      }
      next += below.count
    }
    nodes.append(
      Node(
        letter: 0, first_child: Int32(nodes.count), first_word: Int32(2 * words.count), word_end: Int32(words.count),
        child_letters: 0, letters_below: 0))
    // A node's words end where its next sibling's begin, its last child's where its own end.
    for node in 0..<nodes.count - 1 {
      let (first, stop) = (Int(nodes[node].first_child), Int(nodes[node + 1].first_child))
      for child in first..<stop {
        nodes[child].word_end = child + 1 < stop ? nodes[child + 1].first_word >> 1 : nodes[node].word_end
      }
    }
    for node in stride(from: nodes.count - 2, through: 0, by: -1) {
      if nodes[node].first_word & 1 != 0, !categories.isEmpty {
        nodes[node].letters_below |= Self.categoryBits(categories[Int(nodes[node].first_word >> 1)])
      }
      for child in Int(nodes[node].first_child)..<Int(nodes[node + 1].first_child) {
        nodes[node].letters_below |= nodes[child].letters_below | Self.letterBit(nodes[child].letter)
      }
    }
    self.init(nodes: IndexTable(nodes), depth: depth)
  }

  /// A letter's bit in a letter set: one per digit (bits 0–9) and per letter a–z (10–35), in
  /// their order, and ``otherLetters`` for every other letter.
  @inline(__always)
  static func letterBit(_ letter: UInt32) -> UInt64 {
    let digit = letter &- 0x30
    if digit < 10 { return 1 << UInt64(digit) }
    let small = letter &- 0x61
    if small < 26 { return 1 << UInt64(small + 10) }
    return otherLetters
  }

  /// The bit of every letter but the digits and a–z.
  static let otherLetters: UInt64 = 1 << 63
  /// Set in a node's child letters when a child's letter sorts before one of a digit or a–z
  /// without being one (folded words have none): the children are then not ranked by their bits.
  static let unranked: UInt64 = 1 << 62
  /// The bits of the digits and a–z.
  static let rankedLetters: UInt64 = 1 << 36 - 1

  /// The categories of a node's words, kept in its letters below above the letters' bits (a
  /// letter set is compared only with letters' bits): bit `n` of `categories`, catalog index
  /// `n`, is bit `categoryShift + n`. A walk for some categories leaves a branch none of them
  /// has a word in, so a search of one category reads only its own words' branches.
  static let categoryShift: UInt64 = 36
  /// How many categories the spare bits hold.
  static let categoryLimit = 26

  /// The bits in a node's letters below of the categories `categories` (bit `n`: index `n`).
  @inline(__always)
  static func categoryBits(_ categories: UInt32) -> UInt64 {
    UInt64(categories) << categoryShift
  }

  /// The child letter set of a node whose children have `letters`, in order.
  static func childLetterBits(_ letters: some Sequence<UInt32>) -> UInt64 {
    var bits: UInt64 = 0
    for letter in letters {
      let bit = letterBit(letter)
      if bits & otherLetters != 0 && bit != otherLetters { bits |= unranked }
      bits |= bit
    }
    return bits
  }

  /// The ids of the words within `allowance` typos of `query` (`CatalogRanking.isTypo`), or with
  /// `prefix`, of whose start it is within the allowance (`isTypo(_:ofPrefixOf:)`), as ascending
  /// runs of ids; the words the query equals or starts are among them. Only branches with a word
  /// of one of `categories` (bit `n`: index `n`) are walked, so the runs hold every such word
  /// and maybe others beside them. None for an allowance of 0 or a query word too long for the
  /// automaton.
  func typoMatches(of query: FoldedWord, allowance: Int, prefix: Bool, categories: UInt32) -> [Range<Int32>] {
    TypoAutomaton.run(query, allowance: allowance) {
      walk($0, prefix: prefix, categories: Self.categoryBits(categories))
    } ?? []
  }

  /// Whether some word of the trie starts with `prefix` (or is it): one path down from the root.
  func hasWord(startingWith prefix: FoldedWord) -> Bool {
    let nodes = nodes.buffer
    guard nodes.count > 1 else { return false }
    var node = 0
    for letter in prefix {
      var child = Int(nodes[node].first_child)
      let stop = Int(nodes[node + 1].first_child)
      while child < stop && nodes[child].letter != letter { child += 1 }
      guard child < stop else { return false }
      node = child
    }
    return true
  }

  private func walk(_ automaton: TypoAutomaton, prefix: Bool, categories: UInt64) -> [Range<Int32>] {
    var found: [Range<Int32>] = []
    // A walk reads a few hundred nodes: they are read without bounds checks, and the path (one
    // frame per letter of the deepest word) is allocated once.
    let nodes = nodes.buffer
    withUnsafeTemporaryAllocation(of: Frame.self, capacity: depth + 1) { frames in
      guard let root = frames.baseAddress, nodes.count > 1 else { return }
      root.initialize(to: frame(automaton.start, node: 0, automaton))
      var top = root
      while true {
        // The next child of the top node that can still lead within the allowance.
        var child: Int
        var mask: UInt64 = 0
        let pending = top.pointee.pending
        if pending != 0 {
          top.pointee.pending = pending & (pending &- 1)
          let before = top.pointee.letterSet & (pending & (0 &- pending) &- 1)
          child = Int(top.pointee.cursor) + before.nonzeroBitCount
          mask = automaton.mask(of: nodes[child].letter)
        } else {
          child = Int(top.pointee.scan)
          let stop = Int(top.pointee.stop)
          let (useful, otherBits, otherAccepts) = (top.pointee.useful, top.pointee.otherBits, top.pointee.otherAccepts)
          while child < stop {
            mask = automaton.mask(of: nodes[child].letter)
            if mask == 0 {
              // A letter not in the query: as every other such, it leads to the frame's
              // `other` state.
              if otherAccepts || nodes[child].child_letters & otherBits != 0 { break }
            } else if mask & useful != 0 {
              break
            }
            child += 1
          }
          guard child < stop else {
            if top == root { break }
            top -= 1
            continue
          }
          top.pointee.scan = Int32(child + 1)
        }
        let node = nodes[child]
        // A branch with no word of the categories searched.
        if node.letters_below & categories == 0 { continue }
        let state = automaton.reading(mask, in: top.pointee.state)
        if automaton.accepts(state) {
          if prefix {
            found.append(node.first_word >> 1..<node.word_end)
            continue
          }
          if node.first_word & 1 != 0 {
            let word = node.first_word >> 1
            found.append(word..<word + 1)
          }
        }
        if node.child_letters == 0 { continue }
        let next = frame(state, node: child, automaton)
        guard next.pending != 0 || next.scan < next.stop, automaton.canContinue(state, within: node.letters_below)
        else { continue }
        top += 1
        top.initialize(to: next)
      }
    }
    return found

    /// The frame of node `node` reached in `state`: which of its children to read.
    @inline(__always)
    func frame(_ state: TypoAutomaton.State, node: Int, _ automaton: TypoAutomaton) -> Frame {
      let (first, stop) = (nodes[node].first_child, nodes[node + 1].first_child)
      let letterSet = nodes[node].child_letters
      let useful = automaton.usefulLetters(after: state)
      guard useful == ~0 else {
        // Only the children of a few letters: those of a digit or a–z found by their rank in
        // the letter set, any other scanned after them.
        let wanted = automaton.letterBits(at: useful)
        let ranked = letterSet & Self.unranked == 0
        let scan =
          !ranked
          ? first
          : wanted & letterSet & Self.otherLetters != 0
            ? first + Int32((letterSet & Self.rankedLetters).nonzeroBitCount) : stop
        return Frame(
          cursor: first, scan: scan, stop: stop, letterSet: letterSet,
          pending: ranked ? wanted & letterSet & Self.rankedLetters : 0, state: state, useful: useful, otherBits: 0,
          otherAccepts: false)
      }
      // Every child is read; those of letters not in the query all reach one state, checked
      // here once.
      let other = automaton.reading(0, in: state)
      let otherUseful = automaton.usefulLetters(after: other)
      return Frame(
        cursor: first, scan: first, stop: stop, letterSet: letterSet, pending: 0, state: state, useful: useful,
        otherBits: otherUseful == ~0 ? ~0 : automaton.letterBits(at: otherUseful),
        otherAccepts: automaton.accepts(other))
    }
  }

  /// A node on the path of the walk, and which of its children are left to read.
  private struct Frame {
    /// The first child.
    var cursor: Int32
    /// The next child to scan, and the end of the children.
    var scan: Int32
    var stop: Int32
    /// The node's child letters.
    var letterSet: UInt64
    /// The ranked letter bits of the children still to read by rank.
    var pending: UInt64
    /// The automaton's state at the node, and its useful letters (`TypoAutomaton.usefulLetters`).
    var state: TypoAutomaton.State
    var useful: UInt64
    /// For the children of letters not in the query: the letter bits one of their children
    /// needs, and whether they are within the allowance.
    var otherBits: UInt64
    var otherAccepts: Bool
  }
}
