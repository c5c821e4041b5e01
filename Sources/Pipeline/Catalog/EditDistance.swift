// Typo tolerance: whether two folded words are within a few edits of each other, counting an
// insertion, a deletion, a substitution or a swap of neighbours ("tyalor") as one edit.

/// Bounded optimal-string-alignment distance (Damerau–Levenshtein without edits to a substring
/// twice), which is what a typo is: a missed, extra, wrong or swapped key.
enum EditDistance {
  /// True when `left` and `right` are at most `bound` edits apart.
  ///
  /// Gives up as soon as a whole row of the table exceeds `bound`, so unrelated words cost a
  /// few rows, and only a band of `2 × bound + 1` cells per row is ever filled.
  static func isWithin(_ bound: Int, _ left: FoldedWord, _ right: FoldedWord) -> Bool {
    if abs(left.count - right.count) > bound { return false }
    if left.isEmpty || right.isEmpty { return max(left.count, right.count) <= bound }
    let columns = right.count + 1
    let beyond = bound + 1
    // Three rows: the one before the previous is needed for swaps.
    var older = [Int](repeating: beyond, count: columns)
    var previous = [Int](repeating: beyond, count: columns)
    var current = [Int](repeating: beyond, count: columns)
    for column in 0..<min(columns, beyond) { previous[column] = column }
    for row in 1...left.count {
      let first = max(1, row - bound)
      let last = min(right.count, row + bound)
      for column in 0..<columns { current[column] = beyond }
      if row <= bound { current[0] = row }
      var rowMinimum = current[0]
      if first <= last {
        for column in first...last {
          let cost = left[row - 1] == right[column - 1] ? 0 : 1
          var best = min(previous[column - 1] + cost, previous[column] + 1, current[column - 1] + 1)
          if row > 1, column > 1, left[row - 1] == right[column - 2], left[row - 2] == right[column - 1] {
            best = min(best, older[column - 2] + 1)
          }
          current[column] = min(best, beyond)
          rowMinimum = min(rowMinimum, current[column])
        }
      }
      if rowMinimum > bound { return false }
      swap(&older, &previous)
      swap(&previous, &current)
    }
    return previous[right.count] <= bound
  }
}
