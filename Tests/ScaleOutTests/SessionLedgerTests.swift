// The ledger between Redis entries and the pipeline: which keystrokes an event accounts for. The
// events name their input line; the ledger looks the entries up and acknowledges exactly those a
// search's end or a clear covers.
import Testing

@testable import ScaleOut

@Suite struct SessionLedgerTests {
  private let holding = ShardHolding(shard: 3, lease: "7:w1")

  private func encoded(_ type: String) -> EncodedEvent {
    EncodedEvent(type: type, json: Array("{\"type\":\"\(type)\"}".utf8), searchTerm: "t")
  }

  private func admit(_ ledger: inout SessionLedger, _ id: String, session: String? = "u1", term: String = "t")
    -> InputRecordDraft
  {
    ledger.admit(ShardEntry(id: id, session: session, term: .success(term)), of: holding)
  }

  @Test func aSearchsEndAcknowledgesItsKeystrokesAndNoLater() {
    var ledger = SessionLedger()
    let first = admit(&ledger, "1-0")
    let second = admit(&ledger, "2-0")
    let third = admit(&ledger, "3-0")
    #expect(first.session == "3|7:w1|u1")
    #expect([first.line, second.line, third.line] == [1, 2, 3])
    let search = ledger.account(kind: .search, pipelineSession: second.session, line: 2) { _ in encoded("search") }
    #expect(search?.eventClass == .search)
    #expect(search?.key == "3/2-0/search")
    #expect(search?.acknowledged == [])
    #expect(search?.extra == Array("3/2-0/end".utf8))
    #expect(search?.term == "t")
    let end = ledger.account(kind: .end, pipelineSession: second.session, line: 2) { _ in encoded("results") }
    #expect(end?.eventClass == .end)
    #expect(end?.key == "3/2-0/end")
    #expect(end?.extra == Array("3/2-0/search".utf8))
    #expect(end?.acknowledged == ["1-0", "2-0"])
    #expect(end?.settlingID == "2-0")
    #expect(ledger.openBookCount == 1, "the third keystroke is still the session's")
  }

  @Test func waitingAndPartialRepeatTheirSearchsKeyWithACategory() {
    var ledger = SessionLedger()
    let draft = admit(&ledger, "5-1")
    let waiting = ledger.account(kind: .other("waiting/music"), pipelineSession: draft.session, line: 1) { _ in
      encoded("waiting")
    }
    #expect(waiting?.key == "3/5-1/waiting/music")
    #expect(waiting?.eventClass == .other("waiting/music"))
    #expect(waiting?.acknowledged == [])
  }

  @Test func aClearAcknowledgesUpToItself() {
    var ledger = SessionLedger()
    _ = admit(&ledger, "1-0")
    let clear = admit(&ledger, "2-0", term: "")
    let item = ledger.account(kind: .cleared, pipelineSession: clear.session, line: 2) { _ in encoded("cleared") }
    #expect(item?.acknowledged == ["1-0", "2-0"])
    #expect(ledger.openBookCount == 0)
  }

  @Test func aBadEntryIsAcknowledgedAloneWithItsInputError() {
    var ledger = SessionLedger()
    _ = admit(&ledger, "1-0")
    let bad = ledger.admit(
      ShardEntry(id: "2-0", session: "u1", term: .failure(EntryRefusal(reason: "no term"))), of: holding)
    #expect(bad.outcome == .failure(EntryRefusal(reason: "no term")))
    // The pipeline's input_error names no session: the ledger finds it by its line.
    let item = ledger.account(kind: .inputError, pipelineSession: nil, line: bad.line) { session in
      #expect(session == "u1")
      return encoded("input_error")
    }
    #expect(item?.acknowledged == ["2-0"])
    #expect(item?.session == "u1")
    #expect(ledger.openBookCount == 1)
  }

  @Test func eventsOfAShardNoLongerHeldAreNotCommitted() {
    var ledger = SessionLedger()
    let draft = admit(&ledger, "1-0")
    ledger.drop(holding)
    #expect(ledger.account(kind: .end, pipelineSession: draft.session, line: 1) { _ in encoded("results") } == nil)
  }

  @Test func aForgottenSessionsLeftoverKeystrokesAreAcknowledged() {
    var ledger = SessionLedger()
    let draft = admit(&ledger, "1-0")
    _ = admit(&ledger, "2-0")
    let item = ledger.forget(pipelineSession: draft.session)
    #expect(item?.eventClass == .acknowledgement)
    #expect(item?.acknowledged == ["1-0", "2-0"])
    #expect(ledger.openBookCount == 0)
  }

  @Test func aSessionWithASearchOpenIsNotForgottenYet() {
    var ledger = SessionLedger()
    let draft = admit(&ledger, "1-0")
    _ = ledger.account(kind: .search, pipelineSession: draft.session, line: 1) { _ in encoded("search") }
    #expect(ledger.forget(pipelineSession: draft.session) == nil)
  }

  @Test func theUnnamedSessionHasAnEmptyName() {
    var ledger = SessionLedger()
    let draft = admit(&ledger, "1-0", session: nil)
    #expect(draft.session == "3|7:w1|")
    #expect(WorkerSink.userSession(draft.session) == nil)
    #expect(WorkerSink.userSession("3|7:w1|a|b") == "a|b")
  }
}

extension CommitItem: Equatable {
  public static func == (lhs: CommitItem, rhs: CommitItem) -> Bool {
    lhs.eventClass == rhs.eventClass && lhs.holding == rhs.holding && lhs.key == rhs.key
      && lhs.acknowledged == rhs.acknowledged
  }
}
