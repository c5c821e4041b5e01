// An event's stamp, `seq` and `at_ms`, given again to an event already encoded: a stored event
// printed with the reader's own numbering, or one written ahead of time and dated when it is
// used. The encoder wrote the stamp, so the encoder reads and rewrites it, by the layout it writes
// (`{"type":"…","seq":…,"at_ms":…` first, always), never by searching the bytes for a marker.

extension JSONLinesEncoder {
  /// `json`, one event's object as this encoder writes it (with or without its newline), with
  /// its `seq` and `at_ms` replaced by those given (nil: kept as they are); nil when `json` does
  /// not begin as this encoder begins an event. `{"type":"search","seq":0,"at_ms":5,"term":"a"}`
  /// with `seq` 7 is `{"type":"search","seq":7,"at_ms":5,"term":"a"}`. With `withoutSession`,
  /// the `session` field (which the encoder writes right after the stamp) is left out: the event
  /// as a connection that is itself the session receives it.
  package static func restamping(
    _ json: [UInt8], seq: Int? = nil, atMilliseconds: Int64? = nil, withoutSession: Bool = false
  ) -> [UInt8]? {
    guard let stamp = EventStampLayout(json) else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(json.count + 40)
    output += json[..<stamp.seq.lowerBound]
    if let seq { output += Array(String(seq).utf8) } else { output += json[stamp.seq] }
    output += json[stamp.seq.upperBound..<stamp.atMilliseconds.lowerBound]
    if let atMilliseconds { output += Array(String(atMilliseconds).utf8) } else { output += json[stamp.atMilliseconds] }
    let rest =
      withoutSession ? stamp.session?.upperBound ?? stamp.atMilliseconds.upperBound : stamp.atMilliseconds.upperBound
    output += json[rest...]
    return output
  }
}

/// Where the digits of `seq` and `at_ms` lie in an event's JSON as `JSONCursor.event` writes it:
/// `{"type":"<letters and _>","seq":<integer>,"at_ms":<integer>` at its very start.
private struct EventStampLayout {
  let seq: Range<Int>
  let atMilliseconds: Range<Int>
  /// `,"session":"…"` right after `at_ms`, when the event has a session.
  let session: Range<Int>?

  init?(_ json: [UInt8]) {
    var index = 0
    func expect(_ literal: StaticString) -> Bool {
      let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
      guard json.count - index >= bytes.count, json[index..<(index + bytes.count)].elementsEqual(bytes) else {
        return false
      }
      index += bytes.count
      return true
    }
    func integer() -> Range<Int>? {
      let start = index
      if index < json.count, json[index] == UInt8(ascii: "-") { index += 1 }
      let digits = index
      while index < json.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(json[index]) { index += 1 }
      return index > digits ? start..<index : nil
    }
    guard expect("{\"type\":\"") else { return nil }
    let letters = UInt8(ascii: "a")...UInt8(ascii: "z")
    while index < json.count, json[index] == UInt8(ascii: "_") || letters.contains(json[index]) { index += 1 }
    guard expect("\",\"seq\":"), let seq = integer(), expect(",\"at_ms\":"), let at = integer() else { return nil }
    self.seq = seq
    atMilliseconds = at
    let sessionStart = index
    session = expect(",\"session\":\"") && Self.skipString(json, from: &index) ? sessionStart..<index : nil
  }

  /// Moves `index` past the rest of a JSON string whose opening quote is behind it (escapes
  /// included); false when the string does not end.
  private static func skipString(_ json: [UInt8], from index: inout Int) -> Bool {
    while index < json.count {
      switch json[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""):
        index += 1
        return true
      default: index += 1
      }
    }
    return false
  }
}
