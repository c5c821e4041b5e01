// The forms a name is matched in: its words, and the other ways people write it without thinking
// of it as a different name ("spiderman" for "Spider-Man", "beatles" for "The Beatles").
import Pipeline

extension TextFolding {
  /// Every form of the name `text`, its own words (`words(_:)`) first, each form once:
  ///
  /// - its words;
  /// - when some of its words are joined by a single hyphen, slash or dot, the same words with
  ///   those joined into one ("Spider-Man" → "spiderman", "AC/DC" → "acdc", "E.T." → "et");
  /// - when a form of two words or more starts with "the", that form without it ("The Beatles"
  ///   → "beatles"), so that a name typed without its article is still typed whole.
  ///
  /// A name with no words has one empty form.
  static func forms(_ text: String) -> [[FoldedWord]] {
    let split = literalWords(text)
    var forms = [canonical(split.words)]
    if split.joinedToNext.contains(true) {
      var joined: [FoldedWord] = []
      for (index, word) in split.words.enumerated() {
        if index > 0 && split.joinedToNext[index - 1] {
          joined[joined.count - 1].append(contentsOf: word)
        } else {
          joined.append(word)
        }
      }
      forms.append(canonical(joined))
    }
    for form in forms where form.count >= 2 && form[0] == the {
      let withoutArticle = Array(form.dropFirst())
      if !forms.contains(withoutArticle) { forms.append(withoutArticle) }
    }
    return forms
  }

  /// "the", the article a form may be typed without.
  private static let the = ascii("the")
}
