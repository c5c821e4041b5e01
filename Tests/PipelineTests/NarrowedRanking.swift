// The ranking rule's definition (`CatalogRanking.answer`) over a large set of candidates, asked
// many queries: each query first sets aside the candidates that no tier of the rule can match,
// so that the definition, which is slow in a debug build, ranks only the rest. The answer is the
// definition's own: a candidate set aside has no tier, and `answer` drops such candidates anyway.
@testable import Catalog
@testable import Pipeline

/// `CatalogRanking.answer` for many queries over the same candidates.
///
/// Every tier of the rule needs each query word to be equal to, started by, or within its typos
/// of (the start of) some word of the candidate's names. Whether a query word can match a word is
/// decided once per distinct word, not once per occurrence; a candidate none of whose words can
/// match some query word is set aside. `CatalogReferenceTests` checks on every one of its queries
/// that nothing the rule matches is ever set aside.
struct NarrowedRanking {
  let candidates: [CatalogRanking.Candidate]
  /// Every distinct word of the candidates' names.
  private let words: [FoldedWord]
  /// The same words, sorted, for the query's respellings.
  private let dictionary: [FoldedWord]
  /// Every word of the catalog, for the guarded typos; nil for `dictionary`.
  private let catalogWords: [FoldedWord]?
  /// For each candidate, the numbers (in `words`) of the words of its names.
  private let wordsOfCandidate: [[Int]]

  /// `catalogWords`: every word of the catalog's names, all categories, sorted, each once; nil
  /// when the candidates are the whole catalog.
  init(_ candidates: [CatalogRanking.Candidate], catalogWords: [FoldedWord]? = nil) {
    var numbers: [FoldedWord: Int] = [:]
    var words: [FoldedWord] = []
    var wordsOfCandidate: [[Int]] = []
    wordsOfCandidate.reserveCapacity(candidates.count)
    for candidate in candidates {
      var own: Set<Int> = []
      for form in candidate.forms {
        for word in form.words {
          if let number = numbers[word] {
            own.insert(number)
          } else {
            numbers[word] = words.count
            own.insert(words.count)
            words.append(word)
          }
        }
      }
      wordsOfCandidate.append(Array(own))
    }
    self.candidates = candidates
    self.words = words
    dictionary = words.sorted { $0.lexicographicallyPrecedes($1) }
    self.catalogWords = catalogWords
    self.wordsOfCandidate = wordsOfCandidate
  }

  /// The candidates that some tier of the rule may match for `query`, in their order.
  func possibleMatches(for query: CatalogQuery) -> [CatalogRanking.Candidate] {
    var remaining = Array(candidates.indices)
    for index in query.words.indices {
      // Decided once per word, and only for words of candidates still in the running.
      var decided = [Bool?](repeating: nil, count: words.count)
      remaining = remaining.filter { candidate in
        wordsOfCandidate[candidate].contains { number in
          if let known = decided[number] { return known }
          let matches = Self.mayMatch(query, index, words[number])
          decided[number] = matches
          return matches
        }
      }
    }
    return remaining.map { candidates[$0] }
  }

  /// `CatalogRanking.answer(query, in: candidates, limit: limit)`, ranking only the candidates
  /// some tier may match.
  ///
  /// The query's respellings are found among all the candidates' words, and a candidate is kept
  /// when it may match the query or one of them.
  ///
  /// When nothing matches the whole query, the partial answer (`CatalogRanking.answerOrPartial`),
  /// each part ranked the same way.
  func answer(_ query: CatalogQuery, limit: Int) -> [Int] {
    let whole = wholeAnswer(query, limit: limit)
    guard whole.isEmpty, query.words.count > 1 else { return whole }
    var found: [Int] = []
    _ = CatalogRanking.partialRun(of: query) { part in
      found = wholeAnswer(part, limit: limit)
      return !found.isEmpty
    }
    return found
  }

  /// `CatalogRanking.answer` over the candidates some tier may match.
  private func wholeAnswer(_ query: CatalogQuery, limit: Int) -> [Int] {
    let respellings = CatalogRanking.respellings(of: query, dictionary: dictionary)
    var kept = Set(possibleMatches(for: query).map(\.id))
    for respelling in respellings { kept.formUnion(possibleMatches(for: respelling).map(\.id)) }
    let possible = candidates.filter { kept.contains($0.id) }
    let catalog = catalogWords
    return CatalogRanking.answer(
      query, in: possible, limit: limit, dictionary: dictionary,
      catalogStarts: catalog.map { words in { CatalogRanking.startsSomeWord($0, in: words) } })
  }

  /// Whether query word `index` matches `word` in any way a tier of the rule matches a word:
  /// equal, started (as folded or as typed), or within its typos of the word or of its start
  /// (the start includes the whole word, so one edit-distance table decides both).
  static func mayMatch(_ query: CatalogQuery, _ index: Int, _ word: FoldedWord) -> Bool {
    let part = query.words[index]
    return word == part || query.word(index, starts: word) || CatalogRanking.isTypo(part, ofPrefixOf: word)
  }
}
