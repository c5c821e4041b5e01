// Text that is not Unicode, through the built tool: invalid UTF-8 or an unpaired surrogate escape
// in any string field of a server's answer or of a catalog file becomes U+FFFD and the field stays
// (but the release date, which is a date or nothing); a path argument that is not UTF-8 is refused
// with a reason instead of "no such file".
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct InvalidTextTests {
  /// Every string field an item has, by its iTunes name, and the event field it becomes.
  static let fields: [(itunes: String, event: String)] = [
    ("kind", "kind"), ("trackName", "title"), ("artistName", "artist"), ("collectionName", "collection"),
    ("trackViewUrl", "url"), ("previewUrl", "preview_url"), ("artworkUrl100", "artwork_url"),
    ("releaseDate", "release_date"), ("primaryGenreName", "genre"), ("currency", "currency"),
    ("country", "country"), ("feedUrl", "feed_url"),
  ]

  /// The ways a string breaks, as the raw bytes of a JSON string's inside, and what it reads as.
  static let breakages: [(name: String, bytes: [UInt8], reads: String)] = [
    ("a Latin-1 byte", Array("caf".utf8) + [0xE9], "caf\u{FFFD}"),
    ("a cut-off sequence", Array("ab".utf8) + [0xE2, 0x82], "ab\u{FFFD}"),
    ("an overlong slash", [0xC0, 0xAF] + Array("x".utf8), "\u{FFFD}\u{FFFD}x"),
    ("a lone high surrogate escape", Array(#"a\ud800b"#.utf8), "a\u{FFFD}b"),
    ("a lone low surrogate escape", Array(#"\udc00"#.utf8), "\u{FFFD}"),
    ("a pair reversed", Array(#"\udfb5\ud83c"#.utf8), "\u{FFFD}\u{FFFD}"),
  ]

  /// Items 1, 2, … each with every string field broken the same way (but `kind` when a catalog
  /// must file them under music), and the word "broken" in its title so that a catalog finds
  /// it; item 99 with an escaped pair that must survive.
  static func items(breakingKind: Bool) -> [UInt8] {
    var items: [[UInt8]] = []
    for (index, breakage) in breakages.enumerated() {
      var object = Array(#"{"trackId":\#(index + 1),"wrapperType":"track""#.utf8)
      if !breakingKind { object += Array(#","kind":"song""#.utf8) }
      for field in fields where breakingKind || field.itunes != "kind" {
        let prefix = field.itunes == "trackName" ? "broken " : ""
        object += Array(#","\#(field.itunes)":"\#(prefix)"#.utf8) + breakage.bytes + Array("\"".utf8)
      }
      items.append(object + Array("}".utf8))
    }
    items.append(Array(#"{"trackId":99,"kind":"song","trackName":"broken \ud83c\udfb5 note"}"#.utf8))
    return Array("[".utf8) + Array(items.joined(separator: Array(",".utf8))) + Array("]".utf8)
  }

  /// The items of the first category of the `results` event in `stdout`, as JSON objects.
  static func resultItems(_ stdout: String) throws -> [[String: Any]] {
    for line in stdout.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      guard object?["type"] as? String == "results" else { continue }
      let categories = try #require(object?["categories"] as? [[String: Any]])
      return try #require(categories.first?["items"] as? [[String: Any]])
    }
    Issue.record("no results in: \(stdout)")
    return []
  }

  static func checkEveryFieldIsKeptRepaired(_ items: [[String: Any]], kindBroken: Bool) {
    for (index, breakage) in breakages.enumerated() {
      guard let item = items.first(where: { $0["id"] as? Int == index + 1 }) else {
        Issue.record("item \(index + 1) (\(breakage.name)) is missing")
        continue
      }
      for field in fields where kindBroken || field.itunes != "kind" {
        // A release date is a date or nothing: repaired text is still no date, and is left out.
        let expected =
          field.itunes == "releaseDate" ? nil : (field.itunes == "trackName" ? "broken " : "") + breakage.reads
        #expect(
          item[field.event] as? String == expected, "\(breakage.name): \(field.event) is \(item[field.event] ?? "gone")"
        )
      }
    }
    let intact = items.first { $0["id"] as? Int == 99 }
    #expect(intact?["title"] as? String == "broken \u{1F3B5} note")
  }

  @Test func everyStringFieldOfAServersAnswerIsRepairedAndKept() async throws {
    let body = Data(Array(#"{"resultCount":7,"results":"#.utf8) + Self.items(breakingKind: true) + Array("}".utf8))
    try await withStandIn({ _ in .json(body) }) { server in
      let result = try await Subprocess.run(
        try toolBinary(),
        arguments: [
          "--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music",
          "--retries", "0",
        ],
        input: Data("broken\n".utf8))
      #expect(result.status == 0, "\(result.stderr)")
      Self.checkEveryFieldIsKeptRepaired(try Self.resultItems(result.stdout), kindBroken: true)
    }
  }

  @Test func everyStringFieldOfACatalogFileIsRepairedAndKept() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).json")
    #expect(FileManager.default.createFile(atPath: file.path, contents: Data(Self.items(breakingKind: false))))
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try await Subprocess.run(
      try toolBinary(),
      arguments: ["--catalog", file.path, "--format", "jsonl", "--categories", "music", "--limit", "10"],
      input: Data("broken\n".utf8))
    #expect(result.status == 0, "\(result.stderr)")
    Self.checkEveryFieldIsKeptRepaired(try Self.resultItems(result.stdout), kindBroken: false)
  }

  @Test(arguments: ["--catalog", "--input", "--cache-dir", "--log"])
  func aPathThatIsNotUTF8IsRefusedWithItsReason(option: String) async throws {
    // Only bash can pass bytes that are not UTF-8 as an argument (Process takes Strings).
    let result = try await Subprocess.run(
      URL(fileURLWithPath: "/bin/bash"),
      arguments: ["-c", #""$1" "$2" $'/tmp/caf\xe9.json' --input /dev/null"#, "bash", try toolBinary().path, option])
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "Error: Invalid value '/tmp/caf\u{FFFD}.json' for '\(option)': it is not valid UTF-8, and every argument is read as UTF-8"
      ), "\(result.stderr)")
  }
}
