// Writes one event as a JSON line in the field order docs/events.md gives: measured first for the
// most bytes it can take, then written in one pass by `JSONCursor` into bytes reserved for it.

/// Measures events as JSON lines; `JSONCursor` writes them.
package enum JSONEventWriter {
  /// The most bytes `event` takes as one JSON object and a newline: what the encoder reserves,
  /// and a bound for whoever must know an event's size before encoding it.
  package static func maximumLength(of event: SearchEvent) -> Int {
    // `{"type":"input_error","seq":…,"at_ms":…,"session":…,"term":…}\n` with both integers at
    // their longest: 98 bytes besides the strings.
    var total = 128 + JSONCursor.maximumLength(ofString: event.session)
    switch event.kind {
    case .search(let term), .cancelled(let term, _):
      // `,"reason":"superseded"`: 22.
      total += JSONCursor.maximumLength(ofString: term) + 32
    case .cleared:
      break
    case .results(let term, _, let categories, _):
      // `,"source":"joined","elapsed_ms":…,"categories":[]`: 68.
      total += JSONCursor.maximumLength(ofString: term) + 96
      for category in categories { total += maximumLength(of: category) }
    case .partial(let term, let category):
      total += JSONCursor.maximumLength(ofString: term) + 32 + maximumLength(of: category)
    case .waiting(let term, let category, _):
      // `,"category":…,"wait_ms":…`: 43 besides the string.
      total += JSONCursor.maximumLength(ofString: term) + JSONCursor.maximumLength(ofString: category) + 64
    case .error(let term, let error):
      total += JSONCursor.maximumLength(ofString: term) + maximumLength(of: error) + 32
    case .inputError(_, let reason):
      // `,"line":…,"reason":`: 38 besides the string.
      total += JSONCursor.maximumLength(ofString: reason) + 64
    case .summary(let summary):
      // Eight counts with keys of at most 18 bytes, `,"disk_hits":…,"disk":"…"`.
      total += 8 * 40 + 64 + (summary.diskTier?.rawValue.utf8.count ?? 0)
    }
    return total
  }

  /// `,{"category":"…","source":"…","count":…,"items":[…]}` or the same with `"error":{…}`.
  private static func maximumLength(of result: CategoryResult) -> Int {
    var total = 96 + result.category.rawValue.utf8.count
    switch result.outcome {
    case .items(let items, _): total += JSONItemWriter.maximumLength(of: items)
    case .failed(let error): total += maximumLength(of: error)
    }
    return total
  }

  /// `,"error":{"kind":"…","message":…}`: 38 besides the kind and the message.
  private static func maximumLength(of error: SearchError) -> Int {
    48 + error.kind.utf8.count + JSONCursor.maximumLength(ofString: error.message)
  }
}

extension JSONCursor {
  /// `event` as one JSON object and a newline.
  mutating func event(_ event: SearchEvent) {
    switch event.kind {
    case .search: raw("{\"type\":\"search\",\"seq\":")
    case .results: raw("{\"type\":\"results\",\"seq\":")
    case .partial: raw("{\"type\":\"partial\",\"seq\":")
    case .waiting: raw("{\"type\":\"waiting\",\"seq\":")
    case .cleared: raw("{\"type\":\"cleared\",\"seq\":")
    case .cancelled: raw("{\"type\":\"cancelled\",\"seq\":")
    case .error: raw("{\"type\":\"error\",\"seq\":")
    case .inputError: raw("{\"type\":\"input_error\",\"seq\":")
    case .summary: raw("{\"type\":\"summary\",\"seq\":")
    }
    integer(event.seq)
    raw(",\"at_ms\":")
    integer(event.atMilliseconds)
    field(",\"session\":", event.session)
    switch event.kind {
    case .search(let term):
      field(",\"term\":", term)
    case .cleared:
      break
    case .results(let term, let source, let categories, let elapsed):
      field(",\"term\":", term)
      raw(",\"source\":\"")
      ascii(source.rawValue)
      raw("\",\"elapsed_ms\":")
      integer(elapsed)
      raw(",\"categories\":[")
      for (index, result) in categories.enumerated() {
        if index > 0 { byte(UInt8(ascii: ",")) }
        category(result)
      }
      byte(UInt8(ascii: "]"))
    case .partial(let term, let result):
      field(",\"term\":", term)
      raw(",\"categories\":[")
      category(result)
      byte(UInt8(ascii: "]"))
    case .waiting(let term, let category, let wait):
      field(",\"term\":", term)
      raw(",\"category\":")
      string(category)
      raw(",\"wait_ms\":")
      integer(wait)
    case .cancelled(let term, let reason):
      field(",\"term\":", term)
      raw(",\"reason\":\"")
      ascii(reason.rawValue)
      byte(UInt8(ascii: "\""))
    case .error(let term, let error):
      field(",\"term\":", term)
      raw(",\"error\":")
      self.error(error)
    case .inputError(let line, let reason):
      raw(",\"line\":")
      integer(line)
      raw(",\"reason\":")
      string(reason)
    case .summary(let summary):
      self.summary(summary)
    }
    raw("}\n")
  }

  private mutating func category(_ result: CategoryResult) {
    raw("{\"category\":\"")
    ascii(result.category.rawValue)
    byte(UInt8(ascii: "\""))
    switch result.outcome {
    case .items(let items, let origin):
      raw(",\"source\":\"")
      ascii(origin.rawValue)
      raw("\",\"count\":")
      integer(items.count)
      // Partial matches answer only a category that nothing matches whole, so its first item
      // says it for all.
      if items.first?.match?.quality == .partial { raw(",\"matched\":\"partial\"") }
      raw(",\"items\":[")
      self.items(items)
      byte(UInt8(ascii: "]"))
    case .failed(let error):
      raw(",\"error\":")
      self.error(error)
    }
    byte(UInt8(ascii: "}"))
  }

  private mutating func error(_ error: SearchError) {
    raw("{\"kind\":\"")
    ascii(error.kind)
    raw("\",\"message\":")
    string(error.message)
    byte(UInt8(ascii: "}"))
  }

  private mutating func summary(_ summary: RunSummary) {
    let counts: [(StaticString, Int)] = [
      (",\"input_lines\":", summary.inputLines), (",\"input_errors\":", summary.inputErrors),
      (",\"searches\":", summary.searches), (",\"results\":", summary.results),
      (",\"errors\":", summary.errors), (",\"cancellations\":", summary.cancellations),
      (",\"requests\":", summary.requests), (",\"cache_hits\":", summary.cacheHits),
    ]
    for (key, count) in counts {
      raw(key)
      integer(count)
    }
    if let diskTier = summary.diskTier {
      raw(",\"disk_hits\":")
      integer(summary.diskHits)
      raw(",\"disk\":\"")
      ascii(diskTier.rawValue)
      byte(UInt8(ascii: "\""))
    }
  }
}
