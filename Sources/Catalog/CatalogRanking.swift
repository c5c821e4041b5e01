// The matching and ranking rule of the offline catalog in one readable definition, item by item.
// The index (`CatalogIndex`, `CatalogSearch`) computes the same answer without visiting every
// item; the tests check it against this definition.
import Pipeline

/// Which items a query finds in one category, and in what order.
///
/// Query and names are compared as words after folding and equivalences (`TextFolding`: case,
/// accents, "&" and "and", numbers). Every name of an item (title, collection, artist) is
/// matched in each of its forms (`TextFolding.forms`: "Spider-Man" also as "spiderman", "The
/// Beatles" also as "beatles", and curated aliases such as "Pink" for "P!nk"). A film's director
/// is a *secondary* name: it finds the film, but after every film found by its own title.
///
/// A query word *starts* a name word when the word begins with it (the last query word also as
/// typed: "guns n" starts "n…" and "and…"); it is a *typo* of a name word within
/// ``typoAllowance(forLength:)`` edits (``isTypo(_:of:)``; the last query word also of the start
/// of a name word, as it may not be finished). Query words match at word starts only, never
/// inside a word. Tiers, best first:
///
/// 1. a primary name is the query, word for word ("imagine" finds the song "Imagine" before
///    Imagine Dragons; "beatles" finds The Beatles);
/// 2. a primary name starts with the query: all words but the last equal, in order, the name's
///    first words, and the last starts the next ("taylor sw", "star wa");
/// 3. every query word starts a word of the primary names ("swift tay");
/// 4. every query word starts a word of the names, the secondary ones included ("nolan" finds
///    Christopher Nolan's films after any film titled "Nolan…");
/// 5. to 8., only when tiers 1–4 find nothing in the category: 1 to 4 again with typos allowed,
///    where a name word matches a query word it equals or is a typo of (for the name tiers, the
///    last word as in tier 2: it may also be a typo of the start of the name word). A query of
///    one word of four or five letters that starts no word of the category's names but starts
///    one of the catalog's (another category's) matches nothing through a typo: it is a real
///    word typed where it names nothing, not a misspelling ("jedi" does not fill the songs with
///    "Medi…"; "rogan" does not put *Logan* first among films), while "lizo", which is no word,
///    finds Lizzo. With other words beside it, they say what is meant ("joe rogen").
///
/// Within a tier, by popularity (highest first), then id (lowest first). Typos come last and
/// only as a last resort, so that a misspelling never pushes a near-miss under real matches:
/// "eminem" finds Eminem and not "Meinem", a swap away.
///
/// A query is also searched as it may be respelt (`CatalogQuery.respellings`, by the words of the
/// category's names): two words joined ("sound garden" → "soundgarden") or one split
/// ("taylorswift" → "taylor swift"). A respelling finds items in tiers 1 and 2 only, each after
/// the items the query as typed finds in the same tier; an item takes its best tier of all.
/// Typos count only when neither the query nor a respelling finds anything without one.
enum CatalogRanking {
  /// An item as the rule sees it: every form of each of its names, and whether the name is a
  /// primary one.
  struct Candidate {
    var forms: [(words: [FoldedWord], isPrimary: Bool)]
    var popularity: Int
    var id: Int
  }

  /// The tier where typos begin.
  static let firstTypoTier = 5

  /// The ids of the best `limit` of `candidates` for `query`, by the rule above.
  /// `dictionary`: every word of the category's names, sorted, each once (the query's
  /// respellings are made of them); nil for the words of `candidates`. `catalogStarts`: whether
  /// a word of the whole catalog starts with a word (`isGuardedTypo`); nil for `dictionary`.
  static func answer(
    _ query: CatalogQuery, in candidates: [Candidate], limit: Int, dictionary: [FoldedWord]? = nil,
    catalogStarts: ((FoldedWord) -> Bool)? = nil
  ) -> [Int] {
    guard !query.isEmpty, limit > 0 else { return [] }
    let own = dictionary ?? Self.dictionary(of: candidates)
    let respellings = Self.respellings(of: query, dictionary: own)
    let ownStarts = { (word: FoldedWord) in startsSomeWord(word, in: own) }
    let guarded = Set(
      query.words.indices.filter { number in
        let startsHere =
          ownStarts(query.words[number]) || (number == query.words.count - 1 && ownStarts(query.lastAsTyped))
        return isGuardedTypo(
          query.words[number], of: query.words.count, startsAWordHere: startsHere,
          catalogStarts: catalogStarts ?? ownStarts)
      })
    var ranked = candidates.compactMap { candidate -> (tier: Int, respelt: Int, popularity: Int, id: Int)? in
      var best = tier(of: query, in: candidate.forms, guarded: guarded).map { (tier: $0, respelt: 0) }
      for respelling in respellings {
        guard let found = tier(of: respelling, in: candidate.forms), found <= 2 else { continue }
        if best.map({ (found, 1) < ($0.tier, $0.respelt) }) ?? true { best = (found, 1) }
      }
      return best.map { ($0.tier, $0.respelt, candidate.popularity, candidate.id) }
    }
    if ranked.contains(where: { $0.tier < firstTypoTier }) { ranked.removeAll { $0.tier >= firstTypoTier } }
    ranked.sort { ($0.tier, $0.respelt, -$0.popularity, $0.id) < ($1.tier, $1.respelt, -$1.popularity, $1.id) }
    return ranked.prefix(limit).map(\.id)
  }

  /// `answer`, or when it is empty for a query of two words or more, the answer for the words of
  /// `partialRun`: a category is empty only when no word of the query matches anything in it.
  static func answerOrPartial(
    _ query: CatalogQuery, in candidates: [Candidate], limit: Int, dictionary: [FoldedWord]? = nil,
    catalogStarts: ((FoldedWord) -> Bool)? = nil
  ) -> [Int] {
    let whole = answer(query, in: candidates, limit: limit, dictionary: dictionary, catalogStarts: catalogStarts)
    guard whole.isEmpty, query.words.count > 1 else { return whole }
    var found: [Int] = []
    _ = partialRun(of: query) { part in
      found = answer(part, in: candidates, limit: limit, dictionary: dictionary, catalogStarts: catalogStarts)
      return !found.isEmpty
    }
    return found
  }

  /// Every word of the candidates' names, sorted, each once.
  static func dictionary(of candidates: [Candidate]) -> [FoldedWord] {
    let words = Set(candidates.flatMap { $0.forms.flatMap(\.words) })
    return words.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// The respellings of `query` by the words of `dictionary` (sorted, each once).
  static func respellings(of query: CatalogQuery, dictionary: [FoldedWord]) -> [CatalogQuery] {
    query.respellings(
      isWord: { word in
        let at = firstWord(notBefore: word, in: dictionary)
        return at < dictionary.count && dictionary[at] == word
      },
      startsWord: { startsSomeWord($0, in: dictionary) })
  }

  /// Whether a word of `dictionary` (sorted, each once) starts with `prefix` or is it.
  static func startsSomeWord(_ prefix: FoldedWord, in dictionary: [FoldedWord]) -> Bool {
    let at = firstWord(notBefore: prefix, in: dictionary)
    return at < dictionary.count && dictionary[at].starts(with: prefix)
  }

  /// The first word of `dictionary` (sorted) not before `word`: where `word` is, and where the
  /// words it starts begin.
  private static func firstWord(notBefore word: FoldedWord, in dictionary: [FoldedWord]) -> Int {
    var (low, high) = (0, dictionary.count)
    while low < high {
      let middle = (low + high) / 2
      if dictionary[middle].lexicographicallyPrecedes(word) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The words of a partial answer, for a query that nothing matches whole: the query words that
  /// each match something alone (`matches` of a query of that one word), and of those the
  /// longest run from the first that matches something (`matches`), dropping words from its end.
  /// Nil when no word matches anything. `matches` is asked for each query tried, the run found
  /// last.
  static func partialRun(of query: CatalogQuery, matches: (CatalogQuery) -> Bool) -> [FoldedWord]? {
    let last = query.words.count - 1
    func part(_ numbers: ArraySlice<Int>) -> CatalogQuery {
      let words = numbers.map { query.words[$0] }
      let lastAsTyped = numbers.last == last ? query.lastAsTyped : words[words.count - 1]
      return CatalogQuery(words: words, lastAsTyped: lastAsTyped)
    }
    let kept = query.words.indices.filter { matches(part([$0])) }
    guard !kept.isEmpty else { return nil }
    // The whole query is known to match nothing; a single kept word is known to match.
    var count = kept.count == query.words.count ? kept.count - 1 : kept.count
    while count > 1, !matches(part(kept[..<count])) { count -= 1 }
    if count == 1 { _ = matches(part(kept[..<1])) }
    return kept[..<count].map { query.words[$0] }
  }

  /// The lengths of a query word whose typos are guarded (`isGuardedTypo`).
  static let guardedTypoLengths = 4...5

  /// Whether query word `word`, of a query of `wordCount` words, matches nothing through a typo:
  /// it is the only word, has a length of `guardedTypoLengths`, starts no word of the category
  /// (`startsAWordHere` false) and starts a word of the catalog (`catalogStarts`).
  static func isGuardedTypo(
    _ word: FoldedWord, of wordCount: Int, startsAWordHere: Bool, catalogStarts: (FoldedWord) -> Bool
  ) -> Bool {
    wordCount == 1 && guardedTypoLengths.contains(word.count) && !startsAWordHere && catalogStarts(word)
  }

  /// The tier (1–8) of an item with name forms `forms` for `query`; nil when it does not match.
  /// The query words numbered in `guarded` match no word through a typo.
  static func tier(
    of query: CatalogQuery, in forms: [(words: [FoldedWord], isPrimary: Bool)], guarded: Set<Int> = []
  ) -> Int? {
    let words = query.words
    let last = words.count - 1
    let primary = forms.filter(\.isPrimary).map(\.words)
    let all = forms.map(\.words)
    func equals(_ index: Int, _ word: FoldedWord) -> Bool { word == words[index] }
    func starts(_ index: Int, _ word: FoldedWord) -> Bool { query.word(index, starts: word) }
    func equalsOrTypo(_ index: Int, _ word: FoldedWord) -> Bool {
      word == words[index] || (!guarded.contains(index) && isTypo(words[index], of: word))
    }
    func startsOrTypo(_ index: Int, _ word: FoldedWord) -> Bool {
      starts(index, word)
        || (!guarded.contains(index)
          && (index == last ? isTypo(words[index], ofPrefixOf: word) : isTypo(words[index], of: word)))
    }
    // A name that is the query: as many words, each matching the query word at its position.
    func isQuery(_ name: [FoldedWord], _ matches: (Int, FoldedWord) -> Bool) -> Bool {
      name.count == words.count && name.indices.allSatisfy { matches($0, name[$0]) }
    }
    // A name that starts with the query: each word but the last matching the query word at its
    // position, and the next name word matching the last query word by `lastMatches`.
    func startsWithQuery(
      _ name: [FoldedWord], _ matches: (Int, FoldedWord) -> Bool, _ lastMatches: (Int, FoldedWord) -> Bool
    ) -> Bool {
      name.count >= words.count && (0..<last).allSatisfy { matches($0, name[$0]) } && lastMatches(last, name[last])
    }
    func hasEveryWord(_ names: [[FoldedWord]], _ matches: (Int, FoldedWord) -> Bool) -> Bool {
      words.indices.allSatisfy { index in names.joined().contains { matches(index, $0) } }
    }
    if primary.contains(where: { isQuery($0, equals) }) { return 1 }
    if primary.contains(where: { startsWithQuery($0, equals, starts) }) { return 2 }
    if hasEveryWord(primary, starts) { return 3 }
    if hasEveryWord(all, starts) { return 4 }
    if primary.contains(where: { isQuery($0, equalsOrTypo) }) { return 5 }
    if primary.contains(where: { startsWithQuery($0, equalsOrTypo, startsOrTypo) }) { return 6 }
    if hasEveryWord(primary, startsOrTypo) { return 7 }
    if hasEveryWord(all, startsOrTypo) { return 8 }
    return nil
  }

  /// Whether an item's artist name is a primary name in `category`: everywhere but for films,
  /// whose artist is the director.
  static func artistIsPrimary(in category: Category) -> Bool {
    category != .movies
  }

  /// How many typos a query word of `length` letters may have: none up to 3 letters, one from 4,
  /// two from 8 (Algolia's thresholds; a word of three letters is a typo of too many others).
  static func typoAllowance(forLength length: Int) -> Int {
    switch length {
    case ..<4: 0
    case 4..<8: 1
    default: 2
    }
  }

  /// Of two typos, at most one may come before the query word's fourth letter is matched: a
  /// typo in the first letter is allowed ("kizzo" finds Lizzo), but two among the first three
  /// would let a long word match almost any start (and make the search try every pair of first
  /// letters).
  static let leadingLetters = 3
  static let leadingTypos = 1

  /// Whether query word `part` is within its allowance of typos of `word`: insertions,
  /// deletions, substitutions and swaps of neighbours, at most `leadingTypos` of them before
  /// its fourth letter.
  static func isTypo(_ part: FoldedWord, of word: some RandomAccessCollection<UInt32>) -> Bool {
    let allowance = typoAllowance(forLength: part.count)
    return allowance > 0
      && EditDistance.isWithin(allowance, part, word, leadingLetters: leadingLetters, leadingEdits: leadingTypos)
  }

  /// Whether query word `part` is within its allowance of typos of the start of `word` (the
  /// word itself included): the last query word may be unfinished ("metalic" is one typo from
  /// "metallic…").
  static func isTypo(_ part: FoldedWord, ofPrefixOf word: FoldedWord) -> Bool {
    let allowance = typoAllowance(forLength: part.count)
    return allowance > 0
      && EditDistance.isWithin(
        allowance, part, word, prefix: true, leadingLetters: leadingLetters, leadingEdits: leadingTypos)
  }
}
