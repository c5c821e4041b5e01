// The interactive screen's state fed with pipeline events: only the latest search's answer is
// shown, the selection stays on the list, and the status says what happened.
import Pipeline
import Testing

@testable import stream_search

@Suite struct InteractiveStateTests {
  private func item(_ id: Int, _ title: String) -> SearchItem {
    SearchItem(id: id, trackName: title, artistName: "Taylor Swift", releaseDate: "2014-08-18T07:00:00Z")
  }

  private func event(_ kind: SearchEvent.Kind) -> SearchEvent { SearchEvent(seq: 0, atMilliseconds: 0, kind: kind) }

  private func results(_ term: String, _ items: [SearchItem], elapsed: Int64 = 3) -> SearchEvent {
    event(
      .results(
        term: term, source: .load,
        categories: [CategoryResult(category: .music, outcome: .items(items, from: .catalog))],
        elapsedMilliseconds: elapsed))
  }

  @Test func answerForASupersededTermNeverReachesTheScreen() {
    var state = InteractiveState()
    state.apply(event(.search(term: "tay")))
    state.apply(event(.search(term: "taylor")))
    state.apply(results("tay", [item(1, "Old")]))
    #expect(state.results.isEmpty)
    #expect(state.status == .searching("taylor"))
    state.apply(results("taylor", [item(2, "Shake It Off")]))
    #expect(state.selectedItem?.id == 2)
    #expect(state.status == .answered("taylor", count: 1, origins: [.catalog], elapsedMilliseconds: 3))
  }

  @Test func selectionMovesAndStaysOnTheList() {
    var state = InteractiveState()
    state.apply(event(.search(term: "t")))
    state.apply(results("t", [item(1, "A"), item(2, "B"), item(3, "C")]))
    state.moveSelection(by: 1)
    #expect(state.selectedItem?.id == 2)
    state.moveSelection(by: 5)
    #expect(state.selectedItem?.id == 3)
    state.moveSelection(by: -9)
    #expect(state.selectedItem?.id == 1)
  }

  @Test func newTermsAnswerPutsTheSelectionBackAtTheTop() {
    var state = InteractiveState()
    state.apply(event(.search(term: "t")))
    state.apply(results("t", [item(1, "A"), item(2, "B")]))
    state.moveSelection(by: 1)
    state.apply(event(.search(term: "ta")))
    #expect(state.selectedItem?.id == 2)  // the old answer stays until the new one comes
    state.apply(results("ta", [item(3, "C"), item(4, "D")]))
    #expect(state.selectedItem?.id == 3)
  }

  @Test func errorAndClearEmptyTheResults() {
    var state = InteractiveState()
    state.apply(event(.search(term: "t")))
    state.apply(event(.error(term: "t", error: .timedOut)))
    #expect(state.status == .failed("t", message: SearchError.timedOut.message))
    #expect(state.selectedItem == nil)
    state.apply(event(.cleared))
    #expect(state.status == .idle)
  }

  @Test func statusLineNamesTermCountSourceTimeRequestsAndBudget() {
    var state = InteractiveState()
    state.apply(event(.search(term: "taylor")))
    state.apply(results("taylor", [item(1, "A"), item(2, "B")], elapsed: 12))
    state.requests = 3
    #expect(
      InteractiveView.statusText(state, budgetLeft: 17)
        == "\"taylor\": 2 results from catalog in 12 ms · 3 requests · 17 left in the rate budget")
  }

  @Test func statusLineSaysTheSearchWaitsForTheRateBudgetUntilItAnswers() {
    var state = InteractiveState()
    state.apply(event(.search(term: "taylor")))
    state.apply(event(.waiting(term: "taylor", category: "music", waitMilliseconds: 41_200)))
    state.apply(event(.waiting(term: "taylor", category: "movies", waitMilliseconds: 44_001)))
    // A wait told to a superseded term says nothing about the latest one.
    state.apply(event(.waiting(term: "tay", category: "music", waitMilliseconds: 90_000)))
    #expect(state.status == .waitingForBudget("taylor", milliseconds: 44_001))
    #expect(
      InteractiveView.statusText(state, budgetLeft: 0)
        == "searching \"taylor\"… waiting up to 45 s for the rate budget · 0 requests")
    state.apply(results("taylor", [item(1, "A")], elapsed: 44_010))
    #expect(state.status == .answered("taylor", count: 1, origins: [.catalog], elapsedMilliseconds: 44_010))
  }

  @Test func statusLineSaysWhichCategoryFailedAndWhy() {
    var state = InteractiveState()
    state.apply(event(.search(term: "taylor")))
    state.apply(
      event(
        .results(
          term: "taylor", source: .load,
          categories: [
            CategoryResult(category: .music, outcome: .items([item(1, "A")], from: .network)),
            CategoryResult(category: .podcasts, outcome: .failed(.timedOut)),
          ],
          elapsedMilliseconds: 10_000)))
    #expect(
      InteractiveView.statusText(state, budgetLeft: nil)
        == "\"taylor\": 1 result from network in 10000 ms · podcasts failed: no answer within the timeout"
        + " · 0 requests")
  }

  @Test func rowShowsTitleArtistAndYear() {
    #expect(InteractiveView.row(item(1, "Shake It Off")) == "Shake It Off — Taylor Swift · 2014")
  }

  @Test func frameKeepsTheSelectedRowVisible() {
    var state = InteractiveState()
    state.apply(event(.search(term: "t")))
    state.apply(results("t", (1...10).map { item($0, "Song \($0)") }))
    state.moveSelection(by: 9)
    let frame = InteractiveView.frame(state, size: TerminalSize(rows: 5, columns: 40), budgetLeft: nil)
    #expect(frame.lines.count == 5)
    #expect(frame.lines.last == ScreenLine(text: "> Song 10 — Taylor Swift · 2014", style: .selected))
  }
}
