// What `events` prints for a stored event, and how it remembers keys to drop repeats.
import Testing

@testable import ScaleOut

@Suite struct StoredEventTests {
  @Test func theLineCarriesTheReadersSeq() {
    let json = Array(#"{"type":"search","seq":0,"at_ms":1712,"session":"u1","term":"a,\"seq\":0,"}"#.utf8)
    let event = StoredEvent(shard: 1, id: "5-0", key: "1/5-0/search", type: "search", session: "u1", json: json)
    #expect(
      String(decoding: event.line(seq: 42), as: UTF8.self)
        == #"{"type":"search","seq":42,"at_ms":1712,"session":"u1","term":"a,\"seq\":0,"}"# + "\n")
  }

  @Test func idsOrderByMillisecondsThenSequence() {
    #expect(StoredEvent.order(of: "99-5") < StoredEvent.order(of: "100-0"))
    #expect(StoredEvent.order(of: "100-2") < StoredEvent.order(of: "100-10"))
  }

  @Test func recentKeysDropRepeatsAndForgetTheOldest() {
    var keys = RecentKeys(limit: 2)
    let inserted = ["a", "a", "b", "c", "a", "c"].map { keys.insert($0) }
    // The second "a" is a repeat; once "c" came, "a" was the oldest of three and was forgotten.
    #expect(inserted == [true, false, true, true, true, false])
  }
}
