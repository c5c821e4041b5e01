// The search field's editing keys, and its cursor in terminal columns with wide characters.
import Testing

@testable import stream_search

@Suite struct FieldEditorTests {
  private func field(_ keys: [Key]) -> FieldEditor {
    var field = FieldEditor()
    for key in keys { _ = field.apply(key) }
    return field
  }

  @Test func typingAppendsAndBackspaceRemovesTheLastCharacter() {
    let edited = field([.text("taylo"), .text("r"), .backspace])
    #expect(edited.text == "taylo")
    #expect(edited.cursor == 5)
  }

  @Test func typingAtTheCursorInsertsThere() {
    let edited = field([.text("tylor"), .home, .right, .text("a")])
    #expect(edited.text == "taylor")
    #expect(edited.cursor == 2)
  }

  @Test func controlWDeletesTheWordBeforeTheCursorAndTheSpacesAfterIt() {
    #expect(field([.text("taylor swift  "), .control("w")]).text == "taylor ")
    #expect(field([.text("taylor swift"), .left, .left, .control("w")]).text == "taylor ft")
  }

  @Test func controlUDeletesEverythingBeforeTheCursor() {
    let edited = field([.text("taylor swift"), .left, .left, .control("u")])
    #expect(edited.text == "ft")
    #expect(edited.cursor == 0)
  }

  @Test func deleteRemovesTheCharacterUnderTheCursor() {
    #expect(field([.text("tayylor"), .home, .right, .right, .right, .delete]).text == "taylor")
  }

  @Test func cursorStaysInsideTheText() {
    let edited = field([.text("ab"), .right, .right, .end, .left, .left, .left, .backspace])
    #expect(edited.text == "ab")
    #expect(edited.cursor == 0)
  }

  @Test func combiningMarkJoinsTheCharacterBeforeIt() {
    let edited = field([.text("cafe"), .text("\u{301}")])
    #expect(edited.text == "café")
    #expect(edited.cursor == 4)
    #expect(edited.cursorColumn == 4)
  }

  @Test func wideCharactersCountTwoColumnsForTheCursor() {
    let edited = field([.text("日本語"), .left])
    #expect(edited.cursor == 2)
    #expect(edited.cursorColumn == 4)
  }

  @Test func keysThatAreNotEditsAreLeftToTheScreen() {
    var edited = FieldEditor()
    let handled = [edited.apply(.enter), edited.apply(.up), edited.apply(.text("x"))]
    #expect(handled == [false, false, true])
    #expect(edited.text == "x")
  }

  @Test func aPasteLongerThanATermKeepsTheWholeCharactersThatFitAndSaysSo() {
    // Three bytes each: 341 fit in 1,024 bytes, and the 342nd would be cut in half.
    let pasted = field([.text("ab"), .home, .text(String(repeating: "日", count: 5_000))])
    #expect(pasted.text == String(repeating: "日", count: 340) + "ab")
    #expect(pasted.text.utf8.count == 1_022)
    #expect(pasted.cursor == 340)
    #expect(pasted.wasCut)
    var edited = pasted
    _ = edited.apply(.text("x"))
    #expect(edited.text.utf8.count == 1_023)
    #expect(!edited.wasCut)
    _ = edited.apply(.text("é"))
    #expect(edited.text.utf8.count == 1_023)
    #expect(edited.wasCut)
    _ = edited.apply(.backspace)
    #expect(!edited.wasCut)
  }
}
