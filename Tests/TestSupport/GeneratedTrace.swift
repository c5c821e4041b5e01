// Recorded typing sessions the project owns: made from a seed, so a fresh clone has traces to
// replay and parse without ../shared, and the same seed always gives the same recording.
import Foundation
import StreamsTesting

/// A seeded generator of typing sessions: people typing words letter by letter, with typos
/// fixed by backspace, pauses that let a term settle, words abandoned, mixed case, extra
/// spaces, accents and characters such as `&`, `+`, `/` and `#`, and clears between words.
///
/// ```swift
/// let keys = GeneratedTrace.keys(seed: 1, count: 1_000, sessions: 3)
/// let input = recording(keys)          // JSON lines for `--replay`
/// ```
public enum GeneratedTrace {
  static let words = [
    "taylor", "taylor swift", "Radiohead", "beyoncé", "AC/DC", "queen+bowie", "jack johnson", "björk",
    "the   beatles", "simon & garfunkel", "#1 hits", "100% pure", "señor", "日本", "miles davis", "Drake",
  ]

  /// `count` keystrokes at even milliseconds, in time order; with `sessions` above 1, each key
  /// names one of `u1`…`uN` and the sessions' typing is interleaved.
  public static func keys(seed: UInt64, count: Int, sessions: Int = 1) -> [RecordedKey] {
    var random = SplitMix64(seed: seed)
    var fields = Array(repeating: "", count: max(1, sessions))
    var clocks = Array(repeating: Int64(0), count: max(1, sessions))
    var targets = fields.map { _ in words[0] }
    var keys: [RecordedKey] = []
    while keys.count < count {
      let index = random.below(fields.count)
      var text = fields[index]
      let target = targets[index]
      if text == target || random.below(40) == 0 {
        // Done (or abandoned): clear now and then, else type on from the word.
        text = random.below(3) == 0 ? text + " " : ""
        targets[index] = words[random.below(words.count)]
      } else if random.below(12) == 0, !text.isEmpty {
        text.removeLast()  // a backspace
      } else if random.below(15) == 0 {
        text.append(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(random.below(26)))))  // a typo
      } else if target.hasPrefix(text) {
        text.append(target[target.index(target.startIndex, offsetBy: text.count)])
      } else {
        text.removeLast()
      }
      fields[index] = text
      // 40–180 ms between keys, sometimes a pause long enough to settle.
      let gap = random.below(8) == 0 ? 400 + random.below(800) : 40 + random.below(140)
      clocks[index] += Int64(gap / 2 * 2)
      let session = fields.count > 1 ? "u\(index + 1)" : nil
      keys.append(RecordedKey(clocks[index], text, session: session))
    }
    return keys.sorted { $0.at < $1.at }
  }
}
