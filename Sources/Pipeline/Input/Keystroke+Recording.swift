// The recording format: what `stream-search record` writes and `--replay` reads back.

extension Keystroke {
  /// The keystroke as one recording line, `{"at_ms":1234,"term":"Tay","session":"u42"}` and a
  /// newline; `at_ms` and `session` are left out when nil. `InputLineParser` reads it back as
  /// the same keystroke.
  public var recordingLine: String {
    // `{"at_ms":` and 20 digits, `,"term":`, `,"session":`, `}` and the newline: 50 besides the strings.
    let bound = 64 + JSONCursor.maximumLength(ofString: term) + JSONCursor.maximumLength(ofString: session)
    let bytes = JSONCursor.written(bound: bound) { cursor in
      cursor.byte(UInt8(ascii: "{"))
      if let atMilliseconds {
        cursor.raw("\"at_ms\":")
        cursor.integer(atMilliseconds)
        cursor.byte(UInt8(ascii: ","))
      }
      cursor.raw("\"term\":")
      cursor.string(term)
      cursor.field(",\"session\":", session)
      cursor.raw("}\n")
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
