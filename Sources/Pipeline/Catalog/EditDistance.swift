// Typo tolerance: whether two folded words are within a few edits of each other, counting an
// insertion, a deletion, a substitution or a swap of neighbours ("tyalor") as one edit.

/// Bounded optimal-string-alignment distance (Damerau–Levenshtein without edits to a substring
/// twice), which is what a typo is: a missed, extra, wrong or swapped key.
enum EditDistance {
  /// True when `left` and `right` are at most `bound` edits apart.
  ///
  /// Gives up as soon as a whole row of the table exceeds `bound`, so unrelated words cost a
  /// few rows, and only a band of `2 × bound + 1` cells per row is ever filled. The three rows
  /// live in one stack allocation: the typo scan calls this for every candidate word, and three
  /// heap arrays per call were most of its cost.
  static func isWithin(_ bound: Int, _ left: FoldedWord, _ right: FoldedWord) -> Bool {
    if abs(left.count - right.count) > bound { return false }
    if left.isEmpty || right.isEmpty { return max(left.count, right.count) <= bound }
    let columns = right.count + 1
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * columns) { cells in
      left.withUnsafeBufferPointer { left in
        right.withUnsafeBufferPointer { right in isWithin(bound, left, right, cells: cells) }
      }
    }
  }

  /// The table walk of ``isWithin(_:_:_:)`` over `cells`, three rows of `right.count + 1`.
  private static func isWithin(
    _ bound: Int, _ left: UnsafeBufferPointer<UInt32>, _ right: UnsafeBufferPointer<UInt32>,
    cells: UnsafeMutableBufferPointer<Int>
  ) -> Bool {
    let columns = right.count + 1
    let beyond = bound + 1
    cells.initialize(repeating: beyond)
    // Row starts in `cells`; the one before the previous row is needed for swaps.
    var older = 0
    var previous = columns
    var current = 2 * columns
    for column in 0..<min(columns, beyond) { cells[previous + column] = column }
    for row in 1...left.count {
      let first = max(1, row - bound)
      let last = min(right.count, row + bound)
      for column in 0..<columns { cells[current + column] = beyond }
      if row <= bound { cells[current] = row }
      var rowMinimum = cells[current]
      if first <= last {
        for column in first...last {
          let cost = left[row - 1] == right[column - 1] ? 0 : 1
          var best = min(
            cells[previous + column - 1] + cost, cells[previous + column] + 1, cells[current + column - 1] + 1)
          if row > 1, column > 1, left[row - 1] == right[column - 2], left[row - 2] == right[column - 1] {
            best = min(best, cells[older + column - 2] + 1)
          }
          cells[current + column] = min(best, beyond)
          rowMinimum = min(rowMinimum, cells[current + column])
        }
      }
      if rowMinimum > bound { return false }
      (older, previous, current) = (previous, current, older)
    }
    return cells[previous + right.count] <= bound
  }
}
