// The key decoder on its own: keys from bytes, with UTF-8 characters and escape sequences cut
// anywhere by the end of a read, as a terminal's reads may cut them.
import Testing

@testable import stream_search

@Suite struct KeyDecoderTests {
  /// Decodes `reads` one after the other and returns every key, then what a flush adds.
  private func keys(_ reads: [[UInt8]], flush: Bool = false) -> [Key] {
    var decoder = KeyDecoder()
    var keys = reads.flatMap { decoder.decode($0) }
    if flush { keys += decoder.flushPending() }
    return keys
  }

  @Test func printableBytesOfOneReadAreOneText() {
    #expect(keys([Array("tay".utf8)]) == [.text("tay")])
  }

  @Test func controlKeysHaveTheirNames() {
    #expect(
      keys([[0x0D, 0x7F, 0x08, 0x17, 0x15, 0x03, 0x0C, 0x10, 0x0E]]) == [
        .enter, .backspace, .backspace, .control("w"), .control("u"), .control("c"), .control("l"),
        .control("p"), .control("n"),
      ])
  }

  @Test func multiByteCharacterSplitAcrossReadsCompletesWithTheNextRead() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x63, 0x61, 0x66, 0xC3]) == [.text("caf")])
    #expect(decoder.isPending)
    #expect(decoder.decode([0xA9]) == [.text("é")])
    #expect(!decoder.isPending)
  }

  @Test func japaneseSplitInsideItsThreeBytesComesOutWhole() {
    let bytes = Array("日本".utf8)
    #expect(keys([Array(bytes[0..<1]), Array(bytes[1..<4]), Array(bytes[4...])]) == [.text("日"), .text("本")])
  }

  @Test func fourByteEmojiSplitByteByByte() {
    #expect(keys(Array("🎸".utf8).map { [$0] }) == [.text("🎸")])
  }

  @Test func escapeSequenceSplitAcrossReadsIsOneKey() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.decode([UInt8(ascii: "[")]) == [])
    #expect(decoder.decode([UInt8(ascii: "A"), UInt8(ascii: "x")]) == [.up, .text("x")])
  }

  @Test func arrowsHomeEndAndDeleteInTheirCommonEncodings() {
    let sequences = ["[A", "[B", "[C", "[D", "[H", "[F", "OH", "OF", "[1~", "[4~", "[7~", "[8~", "[3~", "[1;5C"]
    let decoded = keys([sequences.flatMap { [0x1B] + Array($0.utf8) }])
    #expect(
      decoded == [.up, .down, .right, .left, .home, .end, .home, .end, .home, .end, .home, .end, .delete, .right])
  }

  @Test func loneEscapeIsTheEscapeKeyOnlyOnceNoMoreBytesCame() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.flushPending() == [.escape])
    #expect(!decoder.isPending)
  }

  @Test func doubleEscapeGivesTheFirstAtOnce() {
    #expect(keys([[0x1B, 0x1B]], flush: true) == [.escape, .escape])
  }

  @Test func unknownSequencesAndAltLettersAreSkipped() {
    #expect(keys([[0x1B] + Array("[15~".utf8) + [0x1B, UInt8(ascii: "b")] + Array("ok".utf8)]) == [.text("ok")])
  }

  @Test func invalidUTF8IsSkippedAndTheRestStillDecodes() {
    #expect(keys([[0xFF, 0x61, 0xC3, 0x28, 0x62]]) == [.text("a(b")])
  }

  @Test func incompleteCharacterAtAFlushIsDropped() {
    #expect(keys([[0x61, 0xE6, 0x97]], flush: true) == [.text("a")])
  }
}
