// "Did you mean …?": the known option closest to a mistyped one, by edit distance.

/// Finds likely intended spellings of mistyped words.
enum Suggestion {
  /// The candidate with the fewest single-character edits (insert, delete, replace) from `word`,
  /// when there are at most two and `word` is long enough for that to mean a typo; the first in
  /// `candidates` wins a tie. Nil when nothing is that close.
  static func closest(to word: String, among candidates: [String]) -> String? {
    guard word.count >= 4 else { return nil }
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(word, candidate)
      if distance <= 2, distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  /// Levenshtein distance between two strings, counted in characters.
  static func editDistance(_ source: String, _ target: String) -> Int {
    let source = Array(source)
    let target = Array(target)
    // One row of the classic table at a time: previous[j] is the distance from the source's
    // prefix so far to target's first j characters.
    var previous = Array(0...target.count)
    for (i, sourceCharacter) in source.enumerated() {
      var current = [i + 1]
      current.reserveCapacity(target.count + 1)
      for (j, targetCharacter) in target.enumerated() {
        let replace = previous[j] + (sourceCharacter == targetCharacter ? 0 : 1)
        current.append(min(replace, previous[j + 1] + 1, current[j] + 1))
      }
      previous = current
    }
    return previous[target.count]
  }
}
