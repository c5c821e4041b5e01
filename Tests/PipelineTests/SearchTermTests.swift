// Tests of SearchTerm: trimming and collapsing every kind of Unicode whitespace, the case-folded
// key, clearing, and the minimum length counted in Characters.

import StreamsTesting
import Testing

@testable import Pipeline

@Suite struct SearchTermTests {
  @Test func trimsAndCollapsesMixedWhitespace() {
    let term = SearchTerm(" \t Taylor\u{A0}\u{A0}\t Swift\u{3000}\r\n")
    #expect(term.text == "Taylor Swift")
    #expect(term.key == "taylor swift")
  }

  @Test func keepsTidyTextAsIs() {
    #expect(SearchTerm("pink floyd").text == "pink floyd")
    #expect(SearchTerm("東京 事変").text == "東京 事変")
    #expect(SearchTerm("").text == "")
  }

  @Test func treatsExactlyTheUnicodeWhitespaceScalarsAsWhitespace() {
    // Every scalar of the Basic Multilingual Plane: whitespace iff Unicode says White_Space.
    for value in UInt32(0)...0xFFFF {
      guard let scalar = Unicode.Scalar(value), value != 0x20 else { continue }
      let text = SearchTerm("a" + String(Character(scalar)) + "b").text
      if scalar.properties.isWhitespace {
        #expect(text == "a b", "U+\(String(value, radix: 16)) is whitespace")
      } else {
        #expect(text.unicodeScalars.count == 3, "U+\(String(value, radix: 16)) is not whitespace")
      }
    }
  }

  @Test func matchesASimpleReferenceOnGeneratedText() {
    let pieces = [
      " ", "Q", "Z", "@", "[", "`", "{", "  ", "\t", "\n", "\u{A0}", "\u{2003}", "\u{3000}", "\u{85}", "a", "B", "é",
      "e\u{301}", "🎸", "東", "\u{200B}", "x y", "\u{2029}", "\u{1680}", "\u{202F}", "\u{205F}", "\u{2028}",
    ]
    var generator = SplitMix64(seed: 42)
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...8, using: &generator)
      let raw = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
      let expected = raw.unicodeScalars
        .split(whereSeparator: { $0.properties.isWhitespace })
        .map { String(String.UnicodeScalarView($0)) }
        .joined(separator: " ")
      let term = SearchTerm(raw)
      #expect(term.text == expected, "raw: \(raw.unicodeScalars.map { $0.value })")
      #expect(scalarsOf(term.key) == scalarsOf(expected.lowercased()), "raw: \(raw.unicodeScalars.map { $0.value })")
    }
  }

  @Test func keyIsTheLowercasedText() {
    #expect(SearchTerm("  TAYLOR   Swift ").key == "taylor swift")
    #expect(SearchTerm("Straße ÉCOLE").key == "straße école")
    #expect(SearchTerm("Taylor").key == SearchTerm("taylor ").key)
    #expect(SearchTerm("Taylor") != SearchTerm("taylor"))
    let ascii = String(decoding: Array(UInt8(0x21)...0x7E), as: UTF8.self)
    #expect(SearchTerm(ascii).key == ascii.lowercased())
  }

  @Test func whitespaceOnlyTextIsCleared() {
    #expect(SearchTerm("").isCleared)
    #expect(SearchTerm(" \t\u{A0}\u{3000} ").isCleared)
    #expect(!SearchTerm(" a ").isCleared)
  }

  @Test func minimumLengthCountsCharacters() {
    #expect(SearchTerm("e\u{301}").isBelow(minimumLength: 2))
    #expect(!SearchTerm("e\u{301}").isBelow(minimumLength: 1))
    #expect(SearchTerm("👍🏽").isBelow(minimumLength: 2))
    #expect(!SearchTerm("ab").isBelow(minimumLength: 2))
    #expect(!SearchTerm("abc").isBelow(minimumLength: 2))
    #expect(SearchTerm("ae\u{301}").isBelow(minimumLength: 3))
    #expect(!SearchTerm("ae\u{301}").isBelow(minimumLength: 2))
    #expect(SearchTerm("  a  ").isBelow(minimumLength: 2))
    #expect(!SearchTerm("a b").isBelow(minimumLength: 3))
    #expect(SearchTerm("").isBelow(minimumLength: 1))
    #expect(!SearchTerm("").isBelow(minimumLength: 0))
  }
}

/// The scalars of `text`, to compare exactly rather than by canonical equivalence.
private func scalarsOf(_ text: String) -> [UInt32] {
  text.unicodeScalars.map(\.value)
}
