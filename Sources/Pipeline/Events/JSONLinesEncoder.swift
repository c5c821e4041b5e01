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
    output.append(UInt8(ascii: "{"))
    JSONBytes.appendRaw("\"type\":\"", to: &output)
    JSONBytes.appendRaw(event.typeName, to: &output)
    JSONBytes.appendRaw("\",\"seq\":", to: &output)
    JSONBytes.appendInteger(event.seq, to: &output)
    JSONBytes.appendRaw(",\"at_ms\":", to: &output)
    JSONBytes.appendInteger(event.atMilliseconds, to: &output)
    JSONBytes.appendField(",\"session\":", event.session, to: &output)
    JSONBytes.appendField(",\"term\":", event.term, to: &output)
    switch event.kind {
    case .search, .cleared:
      // Nothing beyond the common fields.
      break
    case .results(_, let source, let categories, let elapsed):
      JSONBytes.appendRaw(",\"source\":\"", to: &output)
      JSONBytes.appendRaw(source.rawValue, to: &output)
      JSONBytes.appendRaw("\",\"elapsed_ms\":", to: &output)
      JSONBytes.appendInteger(elapsed, to: &output)
      JSONBytes.appendRaw(",\"categories\":[", to: &output)
      for (index, result) in categories.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        appendCategory(result, to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .partial(_, let result):
      JSONBytes.appendRaw(",\"categories\":[", to: &output)
      appendCategory(result, to: &output)
      output.append(UInt8(ascii: "]"))
    case .waiting(_, let category, let wait):
      JSONBytes.appendRaw(",\"category\":", to: &output)
      JSONBytes.appendString(category, to: &output)
      JSONBytes.appendRaw(",\"wait_ms\":", to: &output)
      JSONBytes.appendInteger(wait, to: &output)
    case .cancelled(_, let reason):
      JSONBytes.appendRaw(",\"reason\":\"", to: &output)
      JSONBytes.appendRaw(reason.rawValue, to: &output)
      output.append(UInt8(ascii: "\""))
    case .error(_, let error):
      JSONBytes.appendRaw(",\"error\":", to: &output)
      appendError(error, to: &output)
    case .inputError(let line, let reason):
      JSONBytes.appendRaw(",\"line\":", to: &output)
      JSONBytes.appendInteger(line, to: &output)
      JSONBytes.appendRaw(",\"reason\":", to: &output)
      JSONBytes.appendString(reason, to: &output)
    case .summary(let summary):
      appendSummary(summary, to: &output)
    }
    JSONBytes.appendRaw("}\n", to: &output)
  }

  /// `event` as one JSON line, ending in a newline.
  public func encode(_ event: SearchEvent) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(256)
    encode(event, into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// `item` as one JSON object and a newline, in the shape the items of a `results` event have
  /// (`{"id":1,"kind":"song","title":"Shake It Off",…}`): what the interactive screen prints
  /// for the selection.
  public func encode(_ item: SearchItem) -> String {
    var output: [UInt8] = []
    JSONItemWriter.append([item], to: &output)
    output.append(UInt8(ascii: "\n"))
    return String(decoding: output, as: UTF8.self)
  }

  private func appendCategory(_ result: CategoryResult, to output: inout [UInt8]) {
    JSONBytes.appendRaw("{\"category\":\"", to: &output)
    JSONBytes.appendRaw(result.category.rawValue, to: &output)
    output.append(UInt8(ascii: "\""))
    switch result.outcome {
    case .items(let items, let origin):
      JSONBytes.appendRaw(",\"source\":\"", to: &output)
      JSONBytes.appendRaw(origin.rawValue, to: &output)
      JSONBytes.appendRaw("\",\"count\":", to: &output)
      JSONBytes.appendInteger(items.count, to: &output)
      JSONBytes.appendRaw(",\"items\":[", to: &output)
      JSONItemWriter.append(items, to: &output)
      output.append(UInt8(ascii: "]"))
    case .failed(let error):
      JSONBytes.appendRaw(",\"error\":", to: &output)
      appendError(error, to: &output)
    }
    output.append(UInt8(ascii: "}"))
  }

  private func appendError(_ error: SearchError, to output: inout [UInt8]) {
    JSONBytes.appendRaw("{\"kind\":\"", to: &output)
    JSONBytes.appendRaw(error.kind, to: &output)
    JSONBytes.appendRaw("\",\"message\":", to: &output)
    JSONBytes.appendString(error.message, to: &output)
    output.append(UInt8(ascii: "}"))
  }

  private func appendSummary(_ summary: RunSummary, to output: inout [UInt8]) {
    let fields: [(StaticString, Int)] = [
      (",\"input_lines\":", summary.inputLines), (",\"input_errors\":", summary.inputErrors),
      (",\"searches\":", summary.searches), (",\"results\":", summary.results),
      (",\"errors\":", summary.errors), (",\"cancellations\":", summary.cancellations),
      (",\"requests\":", summary.requests), (",\"cache_hits\":", summary.cacheHits),
    ]
    for (key, value) in fields {
      JSONBytes.appendRaw(key, to: &output)
      JSONBytes.appendInteger(value, to: &output)
    }
    if let diskTier = summary.diskTier {
      JSONBytes.appendRaw(",\"disk_hits\":", to: &output)
      JSONBytes.appendInteger(summary.diskHits, to: &output)
      JSONBytes.appendRaw(",\"disk\":\"", to: &output)
      JSONBytes.appendRaw(diskTier.rawValue, to: &output)
      JSONBytes.appendRaw("\"", to: &output)
    }
  }
}
