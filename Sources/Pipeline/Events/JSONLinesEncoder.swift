// Writes events as JSON Lines, one object per line with a fixed field order, by hand: this is
// the tool's output hot path. The schema is documented in docs/events.md.

/// Encodes `SearchEvent`s as JSON Lines.
///
/// Useful for machine-readable output: every line is a JSON object whose first fields are always
/// `type`, `seq`, `at_ms`, then `session` (absent when nil) and `term` (on events about a term).
///
/// ```swift
/// var buffer: [UInt8] = []
/// JSONLinesEncoder().encode(event, into: &buffer)  // {"type":"search","seq":1,"at_ms":1176,"term":"taylor"}\n
/// ```
///
/// The output is valid JSON for any Swift string: quotes, backslashes and U+0000–U+001F are
/// escaped, everything else (U+2028, emoji, Japanese…) passes through as UTF-8. Non-finite prices
/// are written as `null`.
public struct JSONLinesEncoder: Sendable {
  /// Creates an encoder.
  public init() {}

  /// Appends `event` as one JSON object and a newline to `output`.
  public func encode(_ event: SearchEvent, into output: inout [UInt8]) {
    let written = Self.bytes(of: event)
    if output.isEmpty {
      output = written
    } else {
      output.append(contentsOf: written)
    }
  }

  /// `event` as one JSON line: measured, then written into bytes reserved for the most it can take.
  static func bytes(of event: SearchEvent) -> [UInt8] {
    JSONCursor.written(bound: JSONEventWriter.maximumLength(of: event)) { $0.event(event) }
  }

  /// `event` as one JSON line, ending in a newline.
  public func encode(_ event: SearchEvent) -> String {
    String(decoding: Self.bytes(of: event), as: UTF8.self)
  }

  /// `item` as one JSON object and a newline, in the shape the items of a `results` event have
  /// (`{"id":1,"kind":"song","title":"Shake It Off",…}`): what the interactive screen prints
  /// for the selection.
  public func encode(_ item: SearchItem) -> String {
    let written = JSONCursor.written(bound: JSONItemWriter.maximumLength(of: [item]) + 1) { cursor in
      cursor.item(item)
      cursor.byte(UInt8(ascii: "\n"))
    }
    return String(decoding: written, as: UTF8.self)
  }
}
