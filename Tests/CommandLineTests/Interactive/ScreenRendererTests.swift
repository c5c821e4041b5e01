// The screen diff on its own: the first frame draws every row, later frames only the rows that
// changed, and an unchanged frame writes nothing.
import Testing

@testable import stream_search

@Suite struct ScreenRendererTests {
  private let size = TerminalSize(rows: 4, columns: 20)

  private func frame(_ texts: [String], cursor: Int = 0) -> ScreenFrame {
    ScreenFrame(lines: texts.map { ScreenLine(text: $0) }, cursorRow: 0, cursorColumn: cursor)
  }

  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func firstFrameClearsTheScreenAndDrawsItsRows() {
    var renderer = ScreenRenderer(size: size)
    let output = text(renderer.render(frame(["> tay", "searching"])))
    #expect(output.hasPrefix("\u{1B}[?25l\u{1B}[H\u{1B}[2J"))
    #expect(output.contains("\u{1B}[1;1H> tay\u{1B}[K\u{1B}[2;1Hsearching\u{1B}[K"))
    // The clear already blanked the rows the frame leaves empty.
    #expect(!output.contains("\u{1B}[3;1H"))
    #expect(output.hasSuffix("\u{1B}[1;1H\u{1B}[?25h"))
  }

  @Test func laterFrameRedrawsOnlyTheChangedRow() {
    var renderer = ScreenRenderer(size: size)
    _ = renderer.render(frame(["> tay", "searching", "music"]))
    let output = text(renderer.render(frame(["> tay", "3 results", "music"], cursor: 5)))
    #expect(output == "\u{1B}[?25l\u{1B}[2;1H3 results\u{1B}[K\u{1B}[1;6H\u{1B}[?25h")
  }

  @Test func unchangedFrameWritesNothing() {
    var renderer = ScreenRenderer(size: size)
    _ = renderer.render(frame(["> tay"], cursor: 5))
    #expect(renderer.render(frame(["> tay"], cursor: 5)).isEmpty)
  }

  @Test func movedCursorAloneOnlyMovesTheCursor() {
    var renderer = ScreenRenderer(size: size)
    _ = renderer.render(frame(["> tay"], cursor: 5))
    #expect(text(renderer.render(frame(["> tay"], cursor: 3))) == "\u{1B}[?25l\u{1B}[1;4H\u{1B}[?25h")
  }

  @Test func shorterFrameBlanksTheRowsItNoLongerHas() {
    var renderer = ScreenRenderer(size: size)
    _ = renderer.render(frame(["a", "b", "c"]))
    let output = text(renderer.render(frame(["a"])))
    #expect(output.contains("\u{1B}[2;1H\u{1B}[K"))
    #expect(output.contains("\u{1B}[3;1H\u{1B}[K"))
    #expect(!output.contains("\u{1B}[1;1Ha"))
  }

  @Test func invalidateRedrawsEverything() {
    var renderer = ScreenRenderer(size: size)
    _ = renderer.render(frame(["a", "b"]))
    renderer.invalidate()
    let output = text(renderer.render(frame(["a", "b"])))
    #expect(output.contains("\u{1B}[2J"))
    #expect(output.contains("\u{1B}[1;1Ha\u{1B}[K"))
  }

  @Test func rowsAreCutOneColumnShortOfTheWidthByColumnsNotCharacters() {
    var renderer = ScreenRenderer(size: TerminalSize(rows: 1, columns: 6))
    let output = text(renderer.render(frame(["ab日本語"])))
    #expect(output.contains("ab日\u{1B}[K"))
    #expect(!output.contains("本"))
  }

  @Test func selectedRowIsReversedAcrossTheWidth() {
    var renderer = ScreenRenderer(size: TerminalSize(rows: 1, columns: 8))
    let selected = ScreenFrame(lines: [ScreenLine(text: "> ab", style: .selected)], cursorRow: 0, cursorColumn: 0)
    #expect(text(renderer.render(selected)).contains("\u{1B}[7m> ab   \u{1B}[0m"))
  }
}
