// The recording format: what `stream-search record` writes and `--replay` reads back.

extension Keystroke {
  /// The keystroke as one recording line, `{"at_ms":1234,"term":"Tay","session":"u42"}` and a
  /// newline; `at_ms` and `session` are left out when nil. `InputLineParser` reads it back as
  /// the same keystroke.
  public var recordingLine: String {
    var output: [UInt8] = []
    output.reserveCapacity(48 + term.utf8.count)
    output.append(UInt8(ascii: "{"))
    if let atMilliseconds {
      JSONBytes.appendRaw("\"at_ms\":", to: &output)
      JSONBytes.appendInteger(atMilliseconds, to: &output)
      output.append(UInt8(ascii: ","))
    }
    JSONBytes.appendRaw("\"term\":", to: &output)
    JSONBytes.appendString(term, to: &output)
    JSONBytes.appendField(",\"session\":", session, to: &output)
    JSONBytes.appendRaw("}\n", to: &output)
    return String(decoding: output, as: UTF8.self)
  }
}
