// Typo tolerance, defined: whether a query word is within a few edits of a word (or of the start
// of one), counting an insertion, a deletion, a substitution or a swap of neighbours ("tyalor")
// as one edit. The index finds the same words with `TypoAutomaton`; the tests compare the two.
import Pipeline

/// Optimal-string-alignment distance (Damerau–Levenshtein without editing a swapped pair again),
/// which is what a typo is: a missed, extra, wrong or swapped key.
enum EditDistance {
  /// True when `query` is at most `bound` edits from `word` (with `prefix`, from some prefix of
  /// `word`, the word itself included) and at most `leadingEdits` of those edits come before the
  /// query's first `leadingLetters` letters are matched.
  ///
  /// The table is filled in full, row by row of the query: this is the definition the index's
  /// automaton is checked against, and it runs only on the few words a search compares directly.
  static func isWithin(
    _ bound: Int, _ query: FoldedWord, _ word: some RandomAccessCollection<UInt32>, prefix: Bool = false,
    leadingLetters: Int = 0, leadingEdits: Int = .max
  ) -> Bool {
    let beyond = bound + 1
    let columns = word.count + 1
    // The three rows live on the stack: a search compares a few hundred names' words this way.
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * columns) { rows in
      // Rows j−2, j−1 and j of the table: cell i is the distance from query[..<j] to word[..<i].
      var older = UnsafeMutableBufferPointer(rebasing: rows[0..<columns])
      var previous = UnsafeMutableBufferPointer(rebasing: rows[columns..<2 * columns])
      var current = UnsafeMutableBufferPointer(rebasing: rows[2 * columns..<3 * columns])
      older.initialize(repeating: beyond)
      current.initialize(repeating: beyond)
      func capped(_ value: Int, row: Int) -> Int {
        row <= leadingLetters && value > leadingEdits ? beyond : min(value, beyond)
      }
      for column in 0..<columns { previous.initializeElement(at: column, to: capped(column, row: 0)) }
      return word.withContiguousStorageIfAvailable { word in
        for row in stride(from: 1, through: query.count, by: 1) {
          current[0] = capped(row, row: row)
          for column in stride(from: 1, to: columns, by: 1) {
            let cost = query[row - 1] == word[column - 1] ? 0 : 1
            var best = min(previous[column - 1] + cost, previous[column] + 1, current[column - 1] + 1)
            if row > 1, column > 1, query[row - 1] == word[column - 2], query[row - 2] == word[column - 1] {
              best = min(best, older[column - 2] + 1)
            }
            current[column] = capped(best, row: row)
          }
          (older, previous, current) = (previous, current, older)
        }
        // `previous` now holds the last row: the whole query against each prefix of the word.
        return prefix ? previous.contains { $0 <= bound } : previous[word.count] <= bound
      }
        ?? isWithin(
          bound, query, Array(word), prefix: prefix, leadingLetters: leadingLetters, leadingEdits: leadingEdits)
    }
  }
}
