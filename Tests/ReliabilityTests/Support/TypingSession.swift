// A made-up fast typist, from a seed: words typed letter by letter, pauses, clears, repeats; and
// what the pipeline's documented rules predict it searches, computed without the pipeline.
import Foundation
import Pipeline
import StreamsTesting
import TestSupport

enum TypingSession {
  static let words = [
    "taylor", "Taylor Swift", "radiohead", "abba", "queen", "adele", "drake", "ac dc", "beyonce", "TAYLOR",
  ]

  /// Keystrokes of `wordCount` words from `words` (with repeats): 40–180 ms between letters, now
  /// and then a hesitation of 300–600 ms mid-word, then a pause that is mostly long enough for
  /// the word to settle (350–1200 ms) and sometimes not (40–180 ms), a clear, and 100–600 ms
  /// before the next word.
  static func generate(seed: UInt64, wordCount: Int = 16) -> [RecordedKey] {
    var random = SplitMix64(seed: seed)
    var keys: [RecordedKey] = []
    var now: Int64 = 0
    for _ in 0..<wordCount {
      let word = words.randomElement(using: &random) ?? "abba"
      var typed = ""
      for (index, letter) in word.enumerated() {
        if index > 0 {
          now +=
            Bool.random(using: &random) && Int.random(in: 0..<10, using: &random) == 0
            ? Int64.random(in: 300...600, using: &random) : Int64.random(in: 40...180, using: &random)
        }
        typed.append(letter)
        keys.append(RecordedKey(now, typed))
      }
      now +=
        Int.random(in: 0..<10, using: &random) < 7
        ? Int64.random(in: 350...1_200, using: &random) : Int64.random(in: 40...180, using: &random)
      keys.append(RecordedKey(now, ""))
      now += Int64.random(in: 100...600, using: &random)
    }
    return keys
  }

  /// The terms the rules predict are searched, in order:
  /// - a text settles when `debounce` passes before the next keystroke (a keystroke exactly at
  ///   the deadline comes after it), or when the input ends; a clear settles at once and drops
  ///   the text still waiting (docs: AsyncDebounceSequence, "a zero quiet period … drops any
  ///   pending element");
  /// - settled values are distinct until changed on the trimmed, case-folded text, a clear
  ///   counting as a value; a clear is not a search.
  static func predictedSearches(_ keys: [RecordedKey], debounce: Int64 = 300) -> [String] {
    var searches: [String] = []
    var lastKey: String?
    for (index, key) in keys.enumerated() {
      let text = key.text.split(separator: " ").joined(separator: " ")
      let next = index + 1 < keys.count ? keys[index + 1].at : nil
      guard text.isEmpty || next.map({ $0 - key.at >= debounce }) ?? true else { continue }
      let folded = text.lowercased()
      guard folded != lastKey else { continue }
      lastKey = folded
      if !text.isEmpty { searches.append(text) }
    }
    return searches
  }
}
