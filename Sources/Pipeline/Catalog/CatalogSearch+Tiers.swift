// Tiers 3–8 of a catalog search: every query word starts a word (of the primary names, then of
// any name), and, when nothing matched so far, tiers 1–4 again with typos allowed. Each walks
// one posting list in rank order and checks the other query words on each candidate's own words.

extension CatalogSearch {
  // MARK: Tiers 3 and 4: every query word starts a word

  /// Appends the items where every query word starts a word of a primary name, then those where
  /// that needs a secondary name, other than `nameMatches`.
  mutating func collectWordMatches(skipping nameMatches: [Int32]) {
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
      let bits = itemWordBits[Int(rank)]
      guard startBits.allSatisfy({ bits & $0 != 0 }) else { continue }
      let primary = primaryWordRange(of: rank)
      let all = wordRange(of: rank)
      if primary == all {
        if startsWords(in: all, except: checked) { ranks.append(rank) }
      } else if startsWords(in: primary, except: nil) {
        ranks.append(rank)
      } else if throughSecondary.count < limit, startsWords(in: all, except: checked) {
        throughSecondary.append(rank)
      }
    }
    ranks.append(contentsOf: throughSecondary.prefix(limit - ranks.count))
  }

  /// Whether every query word but `skipped` starts one of the words at `positions` of `tokens`.
  private func startsWords(in positions: Range<Int>, except skipped: Int?) -> Bool {
    for word in starts.indices where word != skipped {
      let set = starts[word]
      var position = positions.lowerBound
      while position < positions.upperBound, !set.contains(tokens[position]) { position += 1 }
      if position == positions.upperBound { return false }
    }
    return true
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
  mutating func collectTypoMatches() {
    let last = query.words.count - 1
    let allowances = query.words.map { CatalogRanking.typoAllowance(forLength: $0.count) }
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
      let typos = allowances[number] > 0 ? index.typos(of: word, prefix: number == last) : CatalogWordSet([])
      let union = starts[number].union(typos)
      guard !union.isEmpty else { return }
      let exact = CatalogWordSet(exactIds[number].map { [$0..<$0 + 1] } ?? [])
      matching.append(union)
      whole.append(number == last ? exact : typos.union(exact))
    }
    let bits = matching.map(Self.bits)
    let itemWordBits = itemWordBits
    func hasBits(_ rank: Int32) -> Bool {
      let itemBits = itemWordBits[Int(rank)]
      return bits.allSatisfy { itemBits & $0 != 0 }
    }
    // Tier 5, whole: its names end with a word the last query word equals or is a typo of. Those
    // words are among the last word's matches: when few names end with one of them, those names
    // are the candidates, and the trie is not walked again for the exact words.
    let lastMatches = matching[last]
    let lastWhole =
      allowances[last] == 0
      ? whole[last]
      : lastMatches.count <= Self.fewWords && index.nameEnds.count(of: lastMatches) <= Self.fewCandidates
        ? lastMatches : whole[last].union(index.typos(of: query.words[last], prefix: false))
    let exactTypos = exactTypoNames(matching: matching, whole: whole, lastWhole: lastWhole, hasBits: hasBits)
    guard exactTypos.count < limit else {
      ranks.append(contentsOf: exactTypos.prefix(limit))
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
        guard hasBits(rank) else { continue }
        if nameTypoTier(of: rank, matching: matching, whole: whole) == 1 { named.append(rank) }
      }
      if exactTypos.count + named.count >= limit {
        ranks.append(contentsOf: (exactTypos + named).prefix(limit))
        return
      }
    }
    // Every other tier, or (when tiers 5 and 6 are complete) tiers 7 and 8 only.
    let found = namesComplete ? (exactTypos + named).sorted() : exactTypos
    var skipped = 0
    let driver = matching.indices.min { postingCount(of: matching[$0]) < postingCount(of: matching[$1]) } ?? 0
    var tiers: [[Int32]] = [exactTypos, named, [], []]
    var candidates = candidates(in: index.postings, of: matching[driver], alone: false)
    // Tier 5 is complete: a walk in rank order can stop when tier 6 (and, once tier 6 is
    // complete too, tier 7) fills the answer.
    let limit = limit
    func isFull(_ tiers: [[Int32]]) -> Bool {
      tiers[0].count + tiers[1].count + (namesComplete ? tiers[2].count : 0) >= limit
    }
    while !isFull(tiers), let rank = candidates.next() {
      while skipped < found.count, found[skipped] < rank { skipped += 1 }
      if skipped < found.count, found[skipped] == rank { continue }
      guard hasBits(rank) else { continue }
      let tier = typoTier(of: rank, matching: matching, whole: whole, namesChecked: namesComplete)
      if let tier, tiers[tier].count < limit {
        tiers[tier].append(rank)
      }
    }
    // Tier by tier, not through `joined().prefix(_:)`: appending a slice of a flattened array
    // walks its indexes over and over, and cost more than the rest of a typo search.
    for tier in tiers {
      ranks.append(contentsOf: tier.prefix(limit - ranks.count))
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
  private func exactTypoNames(
    matching: [CatalogWordSet], whole: [CatalogWordSet], lastWhole: CatalogWordSet, hasBits: (Int32) -> Bool
  ) -> [Int32] {
    let first = query.words.count == 1 ? lastWhole : whole[0]
    guard !first.isEmpty, !lastWhole.isEmpty else { return [] }
    var merge =
      index.nameEnds.count(of: lastWhole) <= index.nameStarts.count(of: first)
      ? PostingMerge(index.nameEnds, words: lastWhole) : PostingMerge(index.nameStarts, words: first)
    var found: [Int32] = []
    while found.count < limit, let rank = merge.next() {
      guard hasBits(rank) else { continue }
      if nameTypoTier(of: rank, matching: matching, whole: whole) == 0 { found.append(rank) }
    }
    return found
  }

  /// The typo tier of an item, 0 for tier 5 to 3 for tier 8; nil when some query word matches
  /// none of its words. With `namesChecked`, the item is known to be in neither tier 5 nor 6.
  private func typoTier(
    of rank: Int32, matching: [CatalogWordSet], whole: [CatalogWordSet], namesChecked: Bool = false
  ) -> Int? {
    let primary = primaryWordRange(of: rank)
    if !namesChecked, let tier = nameTypoTier(of: rank, matching: matching, whole: whole) { return tier }
    if hasEveryWord(in: primary, matching) { return 2 }
    let all = wordRange(of: rank)
    return all != primary && hasEveryWord(in: all, matching) ? 3 : nil
  }

  /// 0 when the item is in tier 5, 1 when in tier 6, nil when in neither.
  private func nameTypoTier(of rank: Int32, matching: [CatalogWordSet], whole: [CatalogWordSet]) -> Int? {
    let last = query.words.count - 1
    let count = query.words.count
    // Tier 5: as many words as the query, each equal to its query word or a whole-word typo.
    let lastIsWhole = { (token: Int32) in
      whole[last].contains(token) || CatalogRanking.isTypo(query.words[last], of: index.words[Int(token)])
    }
    var startsWithQuery = false
    for entry in primaryEntries(of: rank) {
      let start = Int(entryBounds[entry])
      let length = Int(entryBounds[entry + 1]) - start
      guard length >= count else { continue }
      guard (0..<last).allSatisfy({ whole[$0].contains(tokens[start + $0]) }) else { continue }
      let next = tokens[start + last]
      guard matching[last].contains(next) else { continue }
      if length == count && lastIsWhole(next) { return 0 }
      startsWithQuery = true
    }
    return startsWithQuery ? 1 : nil
  }

  /// Whether every query word matches one of the words at `positions` of `tokens`.
  private func hasEveryWord(in positions: Range<Int>, _ matching: [CatalogWordSet]) -> Bool {
    matching.allSatisfy { set in positions.contains { set.contains(tokens[$0]) } }
  }
}
