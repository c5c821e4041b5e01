// Release dates through the built tool, from every source and store: a server's answer (iTunes
// writes a date and a time), a catalog file, the disk cache reading back what it stored, and the
// built-in catalog all give `release_date` in one form, `YYYY-MM-DD`, `YYYY-MM` or `YYYY`, with
// `release_year` beside it; an impossible or unreadable date is left out.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ReleaseDateTests {
  /// Items with every form of date a source may write, and what each must read as.
  static let cases: [(written: String?, date: String?, year: Int?)] = [
    ("2011-08-09T00:00:00Z", "2011-08-09", 2011),
    // Midnight in California is 07:00 UTC: the day stays the day iTunes wrote.
    ("2014-08-18T07:00:00Z", "2014-08-18", 2014),
    ("2015", "2015", 2015),
    ("1999-12", "1999-12", 1999),
    ("2024-02-29", "2024-02-29", 2024),
    ("2023-02-29T00:00:00Z", nil, nil),
    ("soon", nil, nil),
    ("", nil, nil),
    (nil, nil, nil),
  ]

  /// The items of `cases`, numbered from 1, each a song titled "Dated N".
  static var items: String {
    let objects = cases.enumerated().map { index, entry in
      let date = entry.written.map { #","releaseDate":"\#($0)""# } ?? ""
      return #"{"trackId":\#(index + 1),"kind":"song","trackName":"Dated \#(index + 1)"\#(date)}"#
    }
    return "[" + objects.joined(separator: ",") + "]"
  }

  /// Checks the items of the first `results` of `stdout` against `cases`.
  static func checkDates(_ stdout: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let results = try #require(
      try stdout.split(separator: "\n").lazy.compactMap { line in
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      }.first { $0["type"] as? String == "results" }, "no results in \(stdout)", sourceLocation: sourceLocation)
    let categories = try #require(results["categories"] as? [[String: Any]], sourceLocation: sourceLocation)
    let items = try #require(categories.first?["items"] as? [[String: Any]], sourceLocation: sourceLocation)
    #expect(items.count == cases.count, sourceLocation: sourceLocation)
    for item in items {
      guard let id = item["id"] as? Int, (1...cases.count).contains(id) else {
        Issue.record("unexpected item \(item)", sourceLocation: sourceLocation)
        continue
      }
      let expected = cases[id - 1]
      #expect(
        item["release_date"] as? String == expected.date, "\(expected.written ?? "no date")",
        sourceLocation: sourceLocation)
      #expect(
        item["release_year"] as? Int == expected.year, "\(expected.written ?? "no date")",
        sourceLocation: sourceLocation)
    }
  }

  @Test func aServersDatesAreOneFormOnTheFirstRunAndWhenReadBackFromDisk() async throws {
    let body = #"{"resultCount":\#(Self.cases.count),"results":\#(Self.items)}"#
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("dates-\(UUID())")
    defer { try? FileManager.default.removeItem(at: cache) }
    try await withStandIn({ _ in .json(body) }) { server in
      let arguments = [
        "--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music",
        "--retries", "0", "--cache-dir", cache.path,
      ]
      let fetched = try await Subprocess.run(try toolBinary(), arguments: arguments, input: Data("dated\n".utf8))
      #expect(fetched.status == 0, "\(fetched.stderr)")
      try Self.checkDates(fetched.stdout)
      // A second process answers from the disk cache, which stored the items as the first read them.
      let stored = try await Subprocess.run(try toolBinary(), arguments: arguments, input: Data("dated\n".utf8))
      #expect(stored.status == 0, "\(stored.stderr)")
      #expect(stored.stdout.contains(#""disk_hits":1"#), "\(stored.stdout)")
      try Self.checkDates(stored.stdout)
      #expect(server.requests.count == 1)
    }
  }

  @Test func aCatalogFilesDatesAreOneForm() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("dated-\(UUID()).json")
    #expect(FileManager.default.createFile(atPath: file.path, contents: Data(Self.items.utf8)))
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--catalog", file.path, "--format", "jsonl", "--categories", "music"],
      input: Data("dated\n".utf8))
    #expect(result.status == 0, "\(result.stderr)")
    try Self.checkDates(result.stdout)
  }

  @Test func theBuiltInCatalogsDatesAreOneFormWithTheirYear() async throws {
    let recording = ["taylor", "abba", "star wars", "grease", "the help", "rain man", "serial"].enumerated().map {
      #"{"at_ms": \#($0.offset * 1000), "term": "\#($0.element)"}"#
    }.joined(separator: "\n")
    let result = try await Subprocess.run(
      try toolBinary(), arguments: ["--replay", "--format", "jsonl"], input: Data(recording.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    var dates = 0
    var days = 0
    for line in result.stdout.split(separator: "\n") {
      let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      for category in event["categories"] as? [[String: Any]] ?? [] {
        for item in category["items"] as? [[String: Any]] ?? [] {
          let date = item["release_date"] as? String
          let year = item["release_year"] as? Int
          #expect((date == nil) == (year == nil), "\(item)")
          guard let date, let year else { continue }
          dates += 1
          if date.count == 10 { days += 1 }
          #expect([4, 7, 10].contains(date.count) && date.prefix(4) == String(year), "\(date), \(year)")
          #expect(!date.contains("T"), "\(date)")
        }
      }
    }
    // Years alone (most items) and whole days (some films) both.
    #expect(dates > 50 && days >= 3, "\(dates) dates, \(days) of them days")
  }
}
