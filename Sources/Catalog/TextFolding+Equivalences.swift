// The equivalences matching applies after folding, to names and queries alike, so that the ways
// people write one thing meet in one word: "and" for "&", "+" and "n" ("Guns N' Roses"), "of"
// for "o" ("Sweet Child o' Mine"), and one spelling of each small number however it is written
// ("Frozen II", "Frozen 2" and "Frozen Two" are all "frozen two").
import Pipeline

extension TextFolding {
  /// "and": what "&", a lone "+" and a lone "n" stand for.
  static let and = ascii("and")

  /// The words of a text with every equivalence applied, word by word:
  ///
  /// - "n" → "and", "o" → "of" (the apostrophe already dropped: "N'", "'n'", "o'");
  /// - a number from 0 to 20 or a multiple of ten up to 90, in digits → its English word
  ///   ("2" → "two", "50" → "fifty"); larger numbers stay digits;
  /// - a Roman numeral of two letters or more from II to XXXIX → the same number as a word, or in
  ///   digits beyond twenty ("ii" → "two", "xxiv" → "24");
  /// - the one-letter numerals "i", "v", "x" only where they cannot be a pronoun, a letter or an
  ///   initial: after "part", "episode", "chapter", "vol", "volume", "book", "act" or "phase"
  ///   ("Episode I" → "episode one"), and "v" and "x" also as the last of several words
  ///   ("Rocky V", "Saw X"; never "Who Am I").
  /// - a multiple of ten from twenty to ninety followed by a number from one to nine, in words or
  ///   digits → the number in digits ("twenty one pilots" → "21 pilots", like "21 Savage").
  static func canonical(_ words: [FoldedWord]) -> [FoldedWord] {
    var result: [FoldedWord] = []
    result.reserveCapacity(words.count)
    for index in words.indices {
      let previous = index > 0 ? words[index - 1] : nil
      let word = canonical(words[index], after: previous, isLastOfSeveral: index > 0 && index == words.count - 1)
      // "twenty" to "seventy" have 5 to 7 letters, "one" to "nine" 3 to 5.
      if let last = result.last, (5...7).contains(last.count), (3...5).contains(word.count),
        let tens = tens.firstIndex(of: last), let unit = numberWords[1...9].firstIndex(of: word)
      {
        result[result.count - 1] = ascii(String((tens + 2) * 10 + unit))
      } else {
        result.append(word)
      }
    }
    return result
  }

  /// `word` with its equivalence applied, given the word before it and whether it ends a text
  /// of several words.
  static func canonical(_ word: FoldedWord, after previous: FoldedWord?, isLastOfSeveral: Bool) -> FoldedWord {
    // Most words are none of these: decide from the first scalar and the length first.
    guard let first = word.first, word.count <= 7 else { return word }
    if word.count == 1 {
      switch first {
      case 0x6E: return and  // n
      case 0x6F: return of  // o
      case 0x69, 0x76, 0x78:  // i, v, x
        let afterMarker = previous.map { sequelMarkers.contains($0) } ?? false
        guard afterMarker || (first != 0x69 && isLastOfSeveral) else { return word }
        return numberWords[first == 0x69 ? 1 : first == 0x76 ? 5 : 10]
      default: break
      }
    }
    if (0x30...0x39).contains(first) { return numbersInDigits[word] ?? word }
    if first == 0x69 || first == 0x76 || first == 0x78 { return romanNumerals[word] ?? word }
    return word
  }

  /// "of": what a lone "o" stands for.
  private static let of = ascii("of")

  /// The words that a one-letter Roman numeral may follow.
  private static let sequelMarkers: Set<FoldedWord> = Set(
    ["part", "episode", "chapter", "vol", "volume", "book", "act", "phase"].map(ascii))

  /// 0 to 20 as English words, at their own positions.
  private static let numberWords: [FoldedWord] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
  ].map(ascii)

  /// Twenty to ninety in steps of ten.
  private static let tens: [FoldedWord] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
  ].map(ascii)

  /// The spelling of `number` as matching keeps it: a word up to twenty and for the tens up to
  /// ninety, digits otherwise.
  private static func spelling(of number: Int) -> FoldedWord {
    if number <= 20 { return numberWords[number] }
    if number % 10 == 0, number <= 90 { return tens[number / 10 - 2] }
    return ascii(String(number))
  }

  /// "0" … "20", "30" … "90" → their words.
  private static let numbersInDigits: [FoldedWord: FoldedWord] = {
    var table: [FoldedWord: FoldedWord] = [:]
    for number in Array(0...20) + stride(from: 30, through: 90, by: 10) {
      table[ascii(String(number))] = spelling(of: number)
    }
    return table
  }()

  /// "ii" … "xxxix" → their spelling (two letters or more: "i", "v" and "x" alone need context).
  private static let romanNumerals: [FoldedWord: FoldedWord] = {
    var table: [FoldedWord: FoldedWord] = [:]
    let ones = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"]
    for number in 2...39 {
      let roman = String(repeating: "x", count: number / 10) + ones[number % 10]
      if roman.count >= 2 { table[ascii(roman)] = spelling(of: number) }
    }
    return table
  }()

  /// The scalars of an ASCII literal.
  static func ascii(_ text: String) -> FoldedWord {
    text.unicodeScalars.map(\.value)
  }
}
