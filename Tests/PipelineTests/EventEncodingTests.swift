// Tests of the event wire format: golden JSON lines for every event type, a JSONSerialization
// round trip with hostile strings, the pretty formatter, and the examples in docs/events.md.

import Foundation
import StreamsTesting
import Testing

@testable import Pipeline

/// One example event of every type, with its hand-written JSON line (also the examples in docs/events.md).
enum EventExamples {
  static let item = SearchItem(
    id: 1_440_935_467, kind: "song", trackName: "Shake It Off", collectionName: "1989", artistName: "Taylor Swift",
    trackViewUrl: "https://music.apple.com/us/album/1440935467", previewUrl: "https://audio.example/p.m4a",
    artworkUrl: "https://art.example/600x600bb.jpg", releaseDate: "2014-08-18T07:00:00Z", primaryGenreName: "Pop",
    trackTimeMillis: 219_209, price: 1.29, currency: "USD", country: "USA"
  )

  static let pairs: [(SearchEvent, String)] = [
    (
      SearchEvent(seq: 1, atMilliseconds: 1176, kind: .search(term: "taylor")),
      #"{"type":"search","seq":1,"at_ms":1176,"term":"taylor"}"#
    ),
    (
      SearchEvent(
        seq: 3, atMilliseconds: 1577, session: "u42",
        kind: .results(
          term: "taylor", source: .load,
          categories: [
            CategoryResult(category: .music, outcome: .items([item], from: .network)),
            CategoryResult(category: .podcasts, outcome: .failed(.timedOut)),
          ],
          elapsedMilliseconds: 401
        )
      ),
      #"{"type":"results","seq":3,"at_ms":1577,"session":"u42","term":"taylor","source":"load","elapsed_ms":401,"#
        + #""categories":[{"category":"music","source":"network","count":1,"items":[{"id":1440935467,"kind":"song","#
        + #""title":"Shake It Off","artist":"Taylor Swift","collection":"1989","#
        + #""url":"https://music.apple.com/us/album/1440935467","preview_url":"https://audio.example/p.m4a","#
        + #""artwork_url":"https://art.example/600x600bb.jpg","release_date":"2014-08-18","release_year":2014,"#
        + #""genre":"Pop","#
        + #""duration_ms":219209,"price":1.29,"currency":"USD","country":"USA"}]},"#
        + #"{"category":"podcasts","error":{"kind":"timedOut","message":"no answer within the timeout"}}]}"#
    ),
    (SearchEvent(seq: 4, atMilliseconds: 2082, kind: .cleared), #"{"type":"cleared","seq":4,"at_ms":2082}"#),
    (
      SearchEvent(seq: 5, atMilliseconds: 2500, session: "u42", kind: .cancelled(term: "tay", reason: .superseded)),
      #"{"type":"cancelled","seq":5,"at_ms":2500,"session":"u42","term":"tay","reason":"superseded"}"#
    ),
    (
      SearchEvent(seq: 7, atMilliseconds: 3000, kind: .error(term: "drake", error: .server(503))),
      #"{"type":"error","seq":7,"at_ms":3000,"term":"drake","#
        + #""error":{"kind":"server","message":"the service failed with status 503"}}"#
    ),
    (
      SearchEvent(seq: 8, atMilliseconds: 3010, kind: .inputError(line: 7, reason: "invalid JSON")),
      #"{"type":"input_error","seq":8,"at_ms":3010,"line":7,"reason":"invalid JSON"}"#
    ),
    (
      SearchEvent(
        seq: 9, atMilliseconds: 9000,
        kind: .summary(
          RunSummary(
            inputLines: 1000, inputErrors: 1, searches: 120, results: 118, errors: 1,
            cancellations: 3, requests: 200, cacheHits: 80))
      ),
      #"{"type":"summary","seq":9,"at_ms":9000,"input_lines":1000,"input_errors":1,"searches":120,"results":118,"#
        + #""errors":1,"cancellations":3,"requests":200,"cache_hits":80}"#
    ),
    (
      SearchEvent(
        seq: 2, atMilliseconds: 1480, session: "u42",
        kind: .partial(term: "taylor", category: CategoryResult(category: .movies, outcome: .items([], from: .cache)))
      ),
      #"{"type":"partial","seq":2,"at_ms":1480,"session":"u42","term":"taylor","#
        + #""categories":[{"category":"movies","source":"cache","count":0,"items":[]}]}"#
    ),
    (
      SearchEvent(
        seq: 6, atMilliseconds: 2900, session: "u42",
        kind: .waiting(term: "queen", category: "podcasts", waitMilliseconds: 57_100)),
      #"{"type":"waiting","seq":6,"at_ms":2900,"session":"u42","term":"queen","category":"podcasts","wait_ms":57100}"#
    ),
  ]
}

/// The scalars of a string, to compare strings exactly (String's == is canonical equivalence).
func scalars(_ text: String?) -> [UInt32]? {
  text.map { $0.unicodeScalars.map(\.value) }
}

/// `line` (one encoded event) parsed as a JSON object; fails the test when it is not exactly one line.
func parseEventLine(_ line: String) throws -> [String: Any] {
  #expect(line.hasSuffix("\n"))
  #expect(line.utf8.filter { $0 == 0x0A }.count == 1, "one newline, at the end")
  let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
  return try #require(object as? [String: Any])
}

@Suite struct JSONLinesEncoderTests {
  let encoder = JSONLinesEncoder()

  @Test(arguments: EventExamples.pairs.indices)
  func writesTheGoldenLineForEveryType(index: Int) {
    let (event, golden) = EventExamples.pairs[index]
    #expect(encoder.encode(event) == golden + "\n")
  }

  @Test func appendsToTheBufferGiven() {
    var buffer = Array("previous\n".utf8)
    encoder.encode(EventExamples.pairs[0].0, into: &buffer)
    encoder.encode(EventExamples.pairs[2].0, into: &buffer)
    #expect(
      String(decoding: buffer, as: UTF8.self)
        == "previous\n" + EventExamples.pairs[0].1 + "\n" + EventExamples.pairs[2].1 + "\n")
  }

  static let hostileStrings: [String] = [
    "say \"hi\"", #"back\slash\\"#, String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }),
    "line\u{2028}para\u{2029}", "🎸👍🏽🇯🇵", "日本語の検索テスト", "a\u{0}b", "\u{7F}\u{85}\u{FEFF}",
    "</script>", "",
    "e\u{301} vs é", "\\u0041 is not A",
  ]

  @Test(arguments: hostileStrings)
  func hostileStringsSurviveEveryEventType(text: String) throws {
    let item = SearchItem(
      id: -7, kind: text, trackName: text, artistName: text, collectionViewUrl: text, previewUrl: text,
      artworkUrl100: text, releaseDate: text, primaryGenreName: text, currency: text, country: text, feedUrl: text
    )
    let results = SearchEvent(
      seq: 2, atMilliseconds: 5, session: text,
      kind: .results(
        term: text, source: .joined,
        categories: [
          CategoryResult(category: .musicVideo, outcome: .items([item], from: .catalog)),
          CategoryResult(category: .ebook, outcome: .failed(.decoding(text))),
        ],
        elapsedMilliseconds: 0
      )
    )
    let parsed = try parseEventLine(encoder.encode(results))
    #expect(parsed["type"] as? String == "results")
    #expect(scalars(parsed["session"] as? String) == scalars(text))
    #expect(scalars(parsed["term"] as? String) == scalars(text))
    #expect(parsed["source"] as? String == "joined")
    let categories = try #require(parsed["categories"] as? [[String: Any]])
    #expect(categories.count == 2)
    #expect(categories[0]["category"] as? String == "musicVideo")
    #expect(categories[0]["source"] as? String == "catalog")
    #expect((categories[0]["count"] as? NSNumber)?.intValue == 1)
    let encodedItem = try #require((categories[0]["items"] as? [[String: Any]])?.first)
    #expect((encodedItem["id"] as? NSNumber)?.intValue == -7)
    for key in [
      "kind", "title", "artist", "url", "preview_url", "artwork_url", "genre", "currency", "country", "feed_url",
    ] {
      #expect(scalars(encodedItem[key] as? String) == scalars(text), "item field \(key)")
    }
    // A release date is a date or nothing: no hostile string is one.
    for key in ["collection", "duration_ms", "price", "release_date", "release_year"] {
      #expect(encodedItem[key] == nil, "absent \(key)")
    }
    let error = try #require(categories[1]["error"] as? [String: Any])
    #expect(error["kind"] as? String == "decoding")
    #expect(scalars(error["message"] as? String) == scalars(SearchError.decoding(text).message))

    let others: [SearchEvent.Kind] = [
      .search(term: text), .cancelled(term: text, reason: .cleared), .error(term: text, error: .offline(text)),
      .inputError(line: 3, reason: text),
    ]
    for kind in others {
      let object = try parseEventLine(encoder.encode(SearchEvent(seq: 9, atMilliseconds: 1, session: text, kind: kind)))
      #expect(scalars(object["session"] as? String) == scalars(text))
      switch kind {
      case .inputError:
        #expect(scalars(object["reason"] as? String) == scalars(text))
        #expect(object["term"] == nil)
      case .error:
        #expect(scalars(object["term"] as? String) == scalars(text))
        let error = try #require(object["error"] as? [String: Any])
        #expect(scalars(error["message"] as? String) == scalars(SearchError.offline(text).message))
      default:
        #expect(scalars(object["term"] as? String) == scalars(text))
      }
    }
  }

  @Test func randomScalarsAlwaysMakeValidJSON() throws {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<500 {
      let length = Int.random(in: 0...40, using: &generator)
      var text = ""
      for _ in 0..<length {
        // Mostly low scalars (where the escapes are), some from anywhere in Unicode.
        let value =
          Bool.random(using: &generator)
          ? UInt32.random(in: 0...0x7F, using: &generator) : UInt32.random(in: 0...0x10FFFF, using: &generator)
        if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
      }
      let object = try parseEventLine(encoder.encode(SearchEvent(seq: 1, atMilliseconds: 0, kind: .search(term: text))))
      #expect(scalars(object["term"] as? String) == scalars(text))
    }
  }

  @Test func anEscapeAnywhereInALongStringIsWritten() throws {
    // The encoder checks eight bytes at a time: every position of three words, and every byte
    // that needs an escape, next to bytes that come close (0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F).
    for special in ["\"", "\\", "\u{1F}", "\u{0}", "\n"] {
      for position in 0..<24 {
        var characters = Array(repeating: Character("a"), count: 24)
        for (offset, neighbour) in ["\u{20}", "!", "#", "[", "]", "\u{7F}"].enumerated() {
          characters[(position + offset + 1) % 24] = Character(neighbour)
        }
        characters[position] = Character(special)
        let text = String(characters)
        let line = encoder.encode(SearchEvent(seq: 1, atMilliseconds: 0, kind: .search(term: text)))
        #expect(scalars(try parseEventLine(line)["term"] as? String) == scalars(text), "\(position)")
      }
    }
  }

  @Test func numbersRoundTripAndNonFinitePricesBecomeNull() throws {
    let prices: [Double] = [0.1 + 0.2, 1e-7, 1e300, -0.0, 12, 0.99]
    for price in prices {
      let event = SearchEvent(
        seq: Int.max, atMilliseconds: Int64.max,
        kind: .results(
          term: "t", source: .cache,
          categories: [
            .init(
              category: .music,
              outcome: .items(
                [SearchItem(id: Int.min, price: price)],
                from: .cache))
          ],
          elapsedMilliseconds: Int64.min)
      )
      let line = encoder.encode(event)
      #expect(line.contains(#""seq":9223372036854775807,"at_ms":9223372036854775807"#))
      #expect(line.contains(#""elapsed_ms":-9223372036854775808"#))
      #expect(line.contains(#"{"id":-9223372036854775808,"#))
      _ = try parseEventLine(line)
      // Read the token with Swift's exact parser: Foundation's reader on Linux can be off by an ulp.
      let token = try #require(line.split(separator: #""price":"#).last?.prefix { $0 != "," && $0 != "}" })
      #expect(Double(String(token)) == price, "\(token)")
      #expect(Double(String(token))?.sign == price.sign)
    }
    for price in [Double.nan, .infinity, -.infinity] {
      let event = SearchEvent(
        seq: 1, atMilliseconds: 0,
        kind: .results(
          term: "t", source: .cache,
          categories: [.init(category: .music, outcome: .items([SearchItem(id: 1, price: price)], from: .cache))],
          elapsedMilliseconds: 0))
      let line = encoder.encode(event)
      #expect(line.contains(#""price":null"#))
      _ = try parseEventLine(line)
    }
  }
}

@Suite struct PrettyEventFormatterTests {
  let formatter = PrettyEventFormatter()

  @Test func formatsASearch() {
    #expect(formatter.format(EventExamples.pairs[0].0) == #"  1.176s  search    "taylor""#)
  }

  @Test func formatsResultsWithCountsAndItemsUnderThem() {
    #expect(
      formatter.format(EventExamples.pairs[1].0) == """
          1.577s  results   [u42] "taylor"  load 401ms  music 1, podcasts failed (timedOut)
                              music: Shake It Off — Taylor Swift · 2014
        """)
  }

  @Test func itemsOfOneTitleAreToldApartByArtistAndYear() {
    let items = [
      SearchItem(id: 1, trackName: "Paradise", artistName: "Coldplay", releaseDate: "2011-09-12T07:00:00Z"),
      SearchItem(id: 2, trackName: "Paradise", artistName: "George Ezra", releaseDate: "2018"),
      SearchItem(id: 3, collectionName: "Paradise"),
      SearchItem(id: 4, artistName: "Paradise", releaseDate: "1999-01"),
    ]
    let event = SearchEvent(
      seq: 2, atMilliseconds: 900,
      kind: .results(
        term: "paradise", source: .load,
        categories: [CategoryResult(category: .music, outcome: .items(items, from: .catalog))],
        elapsedMilliseconds: 0))
    #expect(
      PrettyEventFormatter(titlesPerCategory: 4).format(event).split(separator: "\n").dropFirst() == [
        "                      music: Paradise — Coldplay · 2011",
        "                             Paradise — George Ezra · 2018",
        "                             Paradise",
        "                             Paradise · 1999",
      ])
  }

  @Test func showsAtMostThreeTitlesPerCategory() {
    let items = (1...5).map { SearchItem(id: $0, trackName: "Song \($0)") } + [SearchItem(id: 6)]
    let event = SearchEvent(
      seq: 1, atMilliseconds: 123_456,
      kind: .results(
        term: "s", source: .cache,
        categories: [
          CategoryResult(category: .music, outcome: .items(items, from: .cache)),
          CategoryResult(category: .movies, outcome: .items([items[5]], from: .catalog)),
        ],
        elapsedMilliseconds: 0))
    #expect(
      formatter.format(event).split(separator: "\n") == [
        #"123.456s  results   "s"  cache 0ms  music 6, movies 1"#,
        "                      music: Song 1",
        "                             Song 2",
        "                             Song 3",
        "                      movies: #6",
      ])
  }

  @Test func formatsAClear() {
    #expect(formatter.format(EventExamples.pairs[2].0) == "  2.082s  cleared")
  }

  @Test func formatsACancellation() {
    #expect(formatter.format(EventExamples.pairs[3].0) == #"  2.500s  cancelled [u42] "tay" (superseded)"#)
  }

  @Test func formatsAnError() {
    #expect(
      formatter.format(EventExamples.pairs[4].0)
        == #"  3.000s  error     "drake"  server: the service failed with status 503"#)
  }

  @Test func formatsAnInputError() {
    #expect(formatter.format(EventExamples.pairs[5].0) == "  3.010s  bad line  line 7: invalid JSON")
  }

  @Test func formatsAPartialAnswer() {
    #expect(formatter.format(EventExamples.pairs[7].0) == #"  1.480s  partial   [u42] "taylor"  movies 0"#)
  }

  @Test func formatsASummary() {
    #expect(
      formatter.format(EventExamples.pairs[6].0) == "  9.000s  summary   1000 lines (1 bad), 120 searches, "
        + "118 results, 1 errors, 3 cancelled, 200 requests, 80 cache hits")
  }

  @Test func coloursTheLabelOnlyWhenAsked() {
    let event = EventExamples.pairs[0].0
    #expect(!formatter.format(event).contains("\u{1B}"))
    #expect(PrettyEventFormatter(colors: true).format(event) == "  1.176s  \u{1B}[36msearch\u{1B}[0m    \"taylor\"")
  }

  @Test func showsControlCharactersInInputEscaped() {
    let event = SearchEvent(seq: 1, atMilliseconds: 0, session: "s\u{7}", kind: .search(term: "a\u{1B}[2J\"b"))
    let text = formatter.format(event)
    #expect(text == #"  0.000s  search    [s\u{7}] "a\u{1B}[2J\"b""#)
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 })
  }
}

@Suite struct EventDocumentationTests {
  /// The lines of the ```jsonl block in docs/events.md.
  static func documentedLines() throws -> [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let text = try String(contentsOf: root.appendingPathComponent("docs/events.md"), encoding: .utf8)
    let afterFence = try #require(text.components(separatedBy: "```jsonl\n").dropFirst().first)
    let block = try #require(afterFence.components(separatedBy: "```").first)
    return block.split(separator: "\n").map(String.init)
  }

  static let documentedFields: [String: [String]] = [
    "search": ["term"],
    "results": ["term", "source", "elapsed_ms", "categories"],
    "partial": ["term", "categories"],
    "waiting": ["term", "category", "wait_ms"],
    "cleared": [],
    "cancelled": ["term", "reason"],
    "error": ["term", "error"],
    "input_error": ["line", "reason"],
    "summary": [
      "input_lines", "input_errors", "searches", "results", "errors", "cancellations", "requests",
      "cache_hits",
    ],
  ]

  @Test func everyExampleParsesAndHasTheDocumentedFields() throws {
    let lines = try Self.documentedLines()
    var types: Set<String> = []
    for line in lines {
      let object = try parseEventLine(line + "\n")
      let type = try #require(object["type"] as? String)
      types.insert(type)
      let fields = try #require(Self.documentedFields[type], "undocumented type \(type)")
      for field in ["seq", "at_ms"] + fields { #expect(object[field] != nil, "\(type) lacks \(field)") }
      let optional: Set<String> = ["session"]
      let unexpected = Set(object.keys).subtracting(["type", "seq", "at_ms"] + fields).subtracting(optional)
      #expect(unexpected.isEmpty, "\(type) has undocumented \(unexpected)")
    }
    #expect(types == Set(Self.documentedFields.keys))
  }

  @Test func examplesReadAsOneRunWithSeqInOrderAndNoRepeats() throws {
    let objects = try Self.documentedLines().map { try parseEventLine($0 + "\n") }
    let seqs = objects.compactMap { $0["seq"] as? Int }
    let instants = objects.compactMap { $0["at_ms"] as? Int }
    #expect(seqs == Array(1...objects.count), "seq must run 1, 2, 3… down the example block")
    #expect(instants == instants.sorted(), "at_ms must not go backwards down the example block")
  }

  @Test func examplesAreWhatTheEncoderWrites() throws {
    let lines = try Self.documentedLines()
    for (event, _) in EventExamples.pairs {
      let encoded = JSONLinesEncoder().encode(event)
      #expect(lines.contains(String(encoded.dropLast())), "docs/events.md lacks \(encoded)")
    }
  }
}
