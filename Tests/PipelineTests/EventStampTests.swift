// The encoder gives an encoded event a new stamp by the layout it writes: the `seq` a reader
// numbers stored events with, the `at_ms` of an event written ahead of time. Text that merely
// looks like a stamp later in the event is never touched.
import Foundation
import Testing

@testable import Pipeline

@Suite struct EventStampTests {
  private func encoded(_ event: SearchEvent) -> [UInt8] {
    Array(JSONLinesEncoder().encode(event).utf8.dropLast())
  }

  @Test func everyKindOfEventGetsItsNewSeqAndAtMsAndKeepsTheRest() throws {
    let kinds: [SearchEvent.Kind] = [
      .search(term: "taylor"), .cleared, .cancelled(term: "a", reason: .superseded),
      .inputError(line: 3, reason: "not JSON"), .waiting(term: "t", category: "music", waitMilliseconds: 5),
    ]
    for kind in kinds {
      let stored = encoded(SearchEvent(seq: 0, atMilliseconds: 0, session: "u1", kind: kind))
      let expected = encoded(SearchEvent(seq: 42, atMilliseconds: 1_712_345_678_901, session: "u1", kind: kind))
      #expect(JSONLinesEncoder.restamping(stored, seq: 42, atMilliseconds: 1_712_345_678_901) == expected)
      let onlySeq = encoded(SearchEvent(seq: 7, atMilliseconds: 0, session: "u1", kind: kind))
      #expect(JSONLinesEncoder.restamping(stored, seq: 7) == onlySeq)
    }
  }

  @Test func aTermThatLooksLikeAStampIsLeftAsItIs() throws {
    let term = #","seq":0,"at_ms":0,"#
    let stored = encoded(SearchEvent(seq: 0, atMilliseconds: 0, session: nil, kind: .search(term: term)))
    let restamped = try #require(JSONLinesEncoder.restamping(stored, seq: 9, atMilliseconds: 5))
    #expect(restamped == encoded(SearchEvent(seq: 9, atMilliseconds: 5, session: nil, kind: .search(term: term))))
  }

  @Test func bytesThatDoNotBeginAsAnEventAreRefused() {
    #expect(JSONLinesEncoder.restamping(Array(#"{"seq":0,"at_ms":0}"#.utf8), seq: 1) == nil)
    #expect(JSONLinesEncoder.restamping(Array(#"{"type":"search","seq":x"#.utf8), seq: 1) == nil)
    #expect(JSONLinesEncoder.restamping([], seq: 1) == nil)
  }

  @Test(arguments: ["u1", #"a "quoted", \ session"#, "ünï"])
  func theSessionIsLeftOutOnlyWhenAsked(session: String) throws {
    let kind = SearchEvent.Kind.search(term: #","session":"x""#)
    let stored = encoded(SearchEvent(seq: 0, atMilliseconds: 0, session: session, kind: kind))
    let expected = encoded(SearchEvent(seq: 3, atMilliseconds: 4, session: nil, kind: kind))
    #expect(JSONLinesEncoder.restamping(stored, seq: 3, atMilliseconds: 4, withoutSession: true) == expected)
    let kept = encoded(SearchEvent(seq: 3, atMilliseconds: 4, session: session, kind: kind))
    #expect(JSONLinesEncoder.restamping(stored, seq: 3, atMilliseconds: 4) == kept)
    let unnamed = encoded(SearchEvent(seq: 0, atMilliseconds: 0, session: nil, kind: kind))
    #expect(JSONLinesEncoder.restamping(unnamed, seq: 3, atMilliseconds: 4, withoutSession: true) == expected)
  }
}
