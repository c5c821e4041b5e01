// Terminal column widths: what the cursor position and the cut to the screen's width rely on.
import Testing

@testable import stream_search

@Suite struct TextWidthTests {
  @Test func asciiAndAccentsTakeOneColumnEach() {
    #expect(TextWidth.columns(of: "taylor") == 6)
    #expect(TextWidth.columns(of: "Beyoncé") == 7)
    #expect(TextWidth.columns(of: "e\u{301}") == 1)
  }

  @Test func eastAsianWideCharactersAndEmojiTakeTwo() {
    #expect(TextWidth.columns(of: "日本") == 4)
    #expect(TextWidth.columns(of: "ｱｲ") == 2)  // halfwidth katakana stay narrow
    #expect(TextWidth.columns(of: "한국") == 4)
    #expect(TextWidth.columns(of: "🎸") == 2)
  }

  @Test func prefixLeavesOutAWideCharacterThatWouldStraddleTheLimit() {
    #expect(TextWidth.prefix(of: "ab日本", fitting: 5) == "ab日")
    #expect(TextWidth.prefix(of: "ab日本", fitting: 3) == "ab")
    #expect(TextWidth.prefix(of: "abc", fitting: 10) == "abc")
  }
}
