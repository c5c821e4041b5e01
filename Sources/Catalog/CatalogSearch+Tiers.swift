// Tiers 3–8 of a catalog search: every query word starts a word (of the primary names, then of
// any name), and, when nothing matched so far, tiers 1–4 again with typos allowed. Each walks
// one posting list in rank order and checks the other query words on each candidate's own words.
import Pipeline

extension CatalogSearch {
  // MARK: Tiers 3 and 4: every query word starts a word

  /// Appends to `ranks` the items where every query word starts a word of a primary name, then
  /// those where that needs a secondary name, other than `nameMatches`.
  func collectWordMatches(skipping nameMatches: [Int32], into ranks: inout TieredRanks) {
    guard starts.allSatisfy({ !$0.isEmpty }) else { return }
    let driver = starts.indices.min { postingCount(of: starts[$0]) < postingCount(of: starts[$1]) } ?? 0
    var candidates = candidates(in: index.postings, of: starts[driver], alone: starts.count == 1)
    // Every rank, not only the driver's: the driver word must be checked too.
    let checked = candidates.isEveryRank ? nil : driver
    var skipped = 0
    // Tier 4 comes after all of tier 3: kept aside until the walk ends.
    var throughSecondary: [Int32] = []
    while ranks.count < limit, let rank = candidates.next() {
      // Both lists ascend, so one pointer finds the items tiers 1 and 2 already took.
      while skipped < nameMatches.count, nameMatches[skipped] < rank { skipped += 1 }
      if skipped < nameMatches.count, nameMatches[skipped] == rank { continue }
      guard hasBits(itemWordBits[Int(rank)], startBits) else { continue }
      switch wordTier(
        of: starts, in: wordRange(of: rank), primaryEnd: primaryWordRange(of: rank).upperBound, checked: checked)
      {
      case .primary: ranks.append(rank, tier: 3)
      case .secondary: if throughSecondary.count < limit { throughSecondary.append(rank) }
      case nil: break
      }
    }
    ranks.append(contentsOf: throughSecondary.prefix(limit - ranks.count), tier: 4)
  }

  /// Whether `itemBits` shares a bit with each of `bits`.
  @inline(__always)
  func hasBits(_ itemBits: UInt64, _ bits: [UInt64]) -> Bool {
    for wordBits in bits where itemBits & wordBits == 0 { return false }
    return true
  }

  /// Where a candidate's words match the query words.
  enum WordTier {
    /// Every query word matches a word of the primary names.
    case primary
    /// Every query word matches a word of the names, some only one of a secondary name.
    case secondary
  }

  /// Where every query word matches one of the words at `positions` of `tokens` (word `n` one
  /// of `sets[n]`: the words it starts, or in the typo tiers those it matches), whose primary
  /// names' words end at `primaryEnd`; nil when some word matches none. Query word `checked` is
  /// known to match one of them. One scan per word serves both tiers: the secondary names'
  /// words follow the primary ones.
  func wordTier(
    of sets: [CatalogWordSet], in positions: Range<Int>, primaryEnd: Int, checked: Int? = nil
  ) -> WordTier? {
    var tier = WordTier.primary
    for word in sets.indices {
      let set = sets[word]
      // The checked word is somewhere: only whether it is in a primary name is unknown.
      let end = word == checked ? primaryEnd : positions.upperBound
      var position = positions.lowerBound
      while position < end, !set.contains(tokens[position]) { position += 1 }
      if position >= primaryEnd {
        if position == positions.upperBound && word != checked { return nil }
        tier = .secondary
      }
    }
    return tier
  }

  // MARK: Tiers 5–8: the same with typos

  /// Appends the items of tiers 5–8: where each query word starts or is a typo of a word, by
  /// tier, then rank. Only called when tiers 1–4 found nothing, so every item found here needs
  /// a typo.
  ///
  /// Tier 5 is found first and whole, from the items with a primary name ending with a word the
  /// last query word equals or is a typo of (or starting with a match of the first word, if
  /// fewer): few, where the lists of tier 6 are long (every name starting with "the" for
  /// "theb"). With tier 5 complete, a walk in rank order stops once tier 6 fills what is left.
  /// Tier 6 needs a name starting with a match of the first query word, so its candidates are
  /// the name-start lists of those words, usually far shorter than the posting lists (or, when
  /// shorter, the posting lists of the last word's matches): they are walked next, and when
  /// they fill the answer nothing else is read. Otherwise tiers 5 and 6 are complete, and the
  /// walk of the query word with the fewest postings for tiers 7 and 8 stops as soon as tier 7
  /// fills what is left, since it visits items best first.
  func collectTypoMatches(into ranks: inout TieredRanks) {
    let last = query.words.count - 1
    let allowances = query.words.indices.map { number in
      isGuardedTypo(number) ? 0 : CatalogRanking.typoAllowance(forLength: query.words[number].count)
    }
    // A word allowed no typo that starts no word ends the search before any walk of the trie.
    guard allowances.indices.allSatisfy({ allowances[$0] > 0 || !starts[$0].isEmpty }) else { return }
    // With no typo allowed in any word, tiers 5–8 are tiers 1–4 again, which found nothing
    // ("the ma n" would walk every film for nothing).
    guard allowances.contains(where: { $0 > 0 }) else { return }
    // Per query word: the words it matches (started or typo), and those it equals or is a
    // whole-word typo of, which a name's words before its last must be for tiers 5 and 6.
    var matching: [CatalogWordSet] = []
    var whole: [CatalogWordSet] = []
    for (number, word) in query.words.enumerated() {
      let typos =
        allowances[number] > 0
        ? index.typos(of: word, prefix: number == last, categories: categories) : CatalogWordSet([])
      let union = starts[number].union(typos)
      guard !union.isEmpty else { return }
      let exact = CatalogWordSet(exactIds[number].map { [$0..<$0 + 1] } ?? [])
      matching.append(union)
      whole.append(number == last ? exact : typos.union(exact))
    }
    // Tier 5, whole: its names end with a word the last query word equals or is a typo of. Those
    // words are among the last word's matches: when few names end with one of them, those names
    // are the candidates, and the trie is not walked again for the exact words.
    let lastMatches = matching[last]
    let fewEnds =
      allowances[last] > 0 && lastMatches.count <= Self.fewWords
      && index.nameEnds.count(of: lastMatches) <= Self.fewCandidates
    let lastWhole =
      allowances[last] == 0 || fewEnds
      ? (allowances[last] == 0 ? whole[last] : lastMatches)
      : whole[last].union(index.typos(of: query.words[last], prefix: false, categories: categories))
    let words = TypoWords(matching: matching, whole: whole, lastWhole: fewEnds ? nil : lastWhole)
    let exactTypos = exactTypoNames(words, lastWhole: lastWhole)
    guard exactTypos.count < limit else {
      ranks.append(contentsOf: exactTypos.prefix(limit), tier: 5)
      return
    }
    // Tier 6, from the items with a primary name starting with a match of the first word, or,
    // when fewer, with a match of the last word anywhere ("the coru": the names starting with
    // "the" are thousands, those with a word like "cor…" a few hundred).
    let firstWords = last == 0 ? matching[0] : whole[0]
    var names =
      last > 0 && postingCount(of: matching[last]) < index.nameStarts.count(of: firstWords)
      ? candidates(in: index.postings, of: matching[last], alone: false)
      : candidates(in: index.nameStarts, of: firstWords, alone: false)
    var named: [Int32] = []
    let namesComplete = !names.isEveryRank
    if namesComplete {
      var skipped = 0
      while exactTypos.count + named.count < limit, let rank = names.next() {
        while skipped < exactTypos.count, exactTypos[skipped] < rank { skipped += 1 }
        if skipped < exactTypos.count, exactTypos[skipped] == rank { continue }
        guard hasBits(itemWordBits[Int(rank)], words.bits) else { continue }
        if nameTypoTier(of: rank, words) == 1 { named.append(rank) }
      }
      if exactTypos.count + named.count >= limit {
        ranks.append(contentsOf: exactTypos, tier: 5)
        ranks.append(contentsOf: named.prefix(limit - exactTypos.count), tier: 6)
        return
      }
    }
    // Every other tier, or (when tiers 5 and 6 are complete) tiers 7 and 8 only.
    let found = namesComplete ? (exactTypos + named).sorted() : exactTypos
    var skipped = 0
    let driver = matching.indices.min { postingCount(of: matching[$0]) < postingCount(of: matching[$1]) } ?? 0
    // Tiers 5 to 8, each its own list: an array of arrays was checked for sharing at every append.
    var exactNames = exactTypos
    var startingNames = named
    var primaryWords: [Int32] = []
    var allWords: [Int32] = []
    var candidates = candidates(in: index.postings, of: matching[driver], alone: false)
    // Tier 5 is complete: a walk in rank order can stop when tier 6 (and, once tier 6 is
    // complete too, tier 7) fills the answer.
    while exactNames.count + startingNames.count + (namesComplete ? primaryWords.count : 0) < limit,
      let rank = candidates.next()
    {
      while skipped < found.count, found[skipped] < rank { skipped += 1 }
      if skipped < found.count, found[skipped] == rank { continue }
      guard hasBits(itemWordBits[Int(rank)], words.bits) else { continue }
      switch typoTier(of: rank, words, namesChecked: namesComplete) {
      case 0: if exactNames.count < limit { exactNames.append(rank) }
      case 1: if startingNames.count < limit { startingNames.append(rank) }
      case 2: if primaryWords.count < limit { primaryWords.append(rank) }
      case 3: if allWords.count < limit { allWords.append(rank) }
      default: break
      }
    }
    // Tier by tier, not through `joined().prefix(_:)`: appending a slice of a flattened array
    // walks its indexes over and over, and cost more than the rest of a typo search.
    for (number, tier) in [exactNames, startingNames, primaryWords, allWords].enumerated() {
      ranks.append(contentsOf: tier.prefix(limit - ranks.count), tier: UInt8(CatalogRanking.firstTypoTier + number))
    }
  }

  /// Whether query word `number` may not match through a typo here
  /// (`CatalogRanking.isGuardedTypo`): a query's one short word that starts no word of this
  /// index but one of the catalog's.
  private func isGuardedTypo(_ number: Int) -> Bool {
    CatalogRanking.isGuardedTypo(
      query.words[number], of: query.words.count, startsAWordHere: !starts[number].isEmpty,
      catalogStarts: index.typoSearch.trie.hasWord(startingWith:))
  }

  /// The words each query word matches in the typo tiers.
  struct TypoWords {
    /// Per query word, the words it starts or is a typo of (for the last, of their start).
    let matching: [CatalogWordSet]
    /// Per query word, the words it equals or is a whole-word typo of; for the last, only
    /// the word it equals.
    let whole: [CatalogWordSet]
    /// The words the last query word equals or is a whole-word typo of, when known (the typo
    /// search found them); nil when each must be checked (`CatalogRanking.isTypo`).
    let lastWhole: CatalogWordSet?
    /// Per query word, the `wordBit`s of `matching` (all bits when there are many).
    let bits: [UInt64]

    init(matching: [CatalogWordSet], whole: [CatalogWordSet], lastWhole: CatalogWordSet?) {
      self.matching = matching
      self.whole = whole
      self.lastWhole = lastWhole
      bits = matching.map(CatalogSearch.bits(of:))
    }
  }

  /// How many words and postings a list of candidates may have to be walked instead of the
  /// trie's exact answer: a few hundred candidates cost about what a walk of the trie does.
  static let fewWords = 64
  static let fewCandidates = 256

  /// Tier 5 in rank order, at most `limit` items: those with a primary name of as many words
  /// as the query, each equal to its query word or a typo of it. The candidates are the items
  /// with a primary name ending with a word of `lastWhole` (which holds at least the words the
  /// last query word equals or is a typo of) or starting with one of `whole[0]` (for one query
  /// word, `lastWhole` both ways), whichever lists are shorter.
  private func exactTypoNames(_ words: TypoWords, lastWhole: CatalogWordSet) -> [Int32] {
    let first = query.words.count == 1 ? lastWhole : words.whole[0]
    guard !first.isEmpty, !lastWhole.isEmpty else { return [] }
    var merge =
      index.nameEnds.count(of: lastWhole) <= index.nameStarts.count(of: first)
      ? PostingMerge(index.nameEnds, words: lastWhole) : PostingMerge(index.nameStarts, words: first)
    var found: [Int32] = []
    while found.count < limit, let rank = merge.next() {
      guard hasBits(itemWordBits[Int(rank)], words.bits) else { continue }
      if nameTypoTier(of: rank, words) == 0 { found.append(rank) }
    }
    return found
  }

  /// The typo tier of an item, 0 for tier 5 to 3 for tier 8; nil when some query word matches
  /// none of its words. With `namesChecked`, the item is known to be in neither tier 5 nor 6.
  private func typoTier(of rank: Int32, _ words: TypoWords, namesChecked: Bool) -> Int? {
    if !namesChecked, let tier = nameTypoTier(of: rank, words) { return tier }
    switch wordTier(of: words.matching, in: wordRange(of: rank), primaryEnd: primaryWordRange(of: rank).upperBound) {
    case .primary: return 2
    case .secondary: return 3
    case nil: return nil
    }
  }

  /// 0 when the item is in tier 5, 1 when in tier 6, nil when in neither.
  private func nameTypoTier(of rank: Int32, _ words: TypoWords) -> Int? {
    let last = query.words.count - 1
    let count = query.words.count
    let (matching, whole) = (words.matching, words.whole)
    var startsWithQuery = false
    for entry in primaryEntries(of: rank) {
      let start = Int(entryBounds[entry])
      let length = Int(entryBounds[entry + 1]) - start
      guard length >= count else { continue }
      var position = 0
      while position < last, whole[position].contains(tokens[start + position]) { position += 1 }
      guard position == last else { continue }
      let next = tokens[start + last]
      guard matching[last].contains(next) else { continue }
      // Tier 5: as many words as the query, each equal to its query word or a whole-word typo.
      if length == count && isWholeLast(next, words) { return 0 }
      startsWithQuery = true
    }
    return startsWithQuery ? 1 : nil
  }

  /// Whether the last query word equals word `token` or is a whole-word typo of it.
  private func isWholeLast(_ token: Int32, _ words: TypoWords) -> Bool {
    if let known = words.lastWhole { return known.contains(token) }
    let last = query.words.count - 1
    return words.whole[last].contains(token) || CatalogRanking.isTypo(query.words[last], of: index.words[Int(token)])
  }
}
