// Decodes every iTunes answer, the project's own (Tests/Fixtures/itunes) and the real ones of the
// shared fixtures when present, and checks the items against the raw JSON.
import Foundation
import ITunes
import Pipeline
import TestSupport
import Testing

@Suite struct ITunesFixtureTests {
  static let sharedFiles = SharedFixtures.itunesFiles()
  static let files = SharedFixtures.projectITunesFiles() + sharedFiles

  @Test func theProjectsOwnFixturesArePresent() {
    #expect(SharedFixtures.projectITunesFiles().count >= 3, "Tests/Fixtures/itunes must hold the project's answers")
  }

  @Test func fixturesArePresentWhenRunningInCI() {
    // Outside CI the fixture tests are merely disabled when the folder is missing; in CI that
    // would hide a broken checkout, so it fails here.
    let folder = SharedFixtures.itunesFolder()
    #expect(
      !SharedFixtures.mustBePresent || (folder != nil && !Self.sharedFiles.isEmpty),
      "CI=true but no iTunes fixtures at \(SharedFixtures.sharedFolder().path)/fixtures/itunes"
    )
  }

  @Test(.enabled(if: !files.isEmpty), arguments: files)
  func everyFixtureDecodesWithMatchingCountAndIdentifiers(file: URL) throws {
    let data = try Data(contentsOf: file)
    let response = try JSONDecoder().decode(ITunesResponse.self, from: data)
    let raw = try RawAnswer(data)
    #expect(response.skippedCount == 0)
    #expect(response.results.count == raw.results.count)
    if let count = raw.resultCount {
      #expect(response.resultCount == count)
      #expect(response.results.count == count)
    }
    for (item, object) in zip(response.results, raw.results) {
      let expectedId = object["trackId"] as? Int ?? object["collectionId"] as? Int ?? object["artistId"] as? Int
      #expect(item.id == expectedId)
      #expect(item.trackName == object["trackName"] as? String)
      #expect(item.collectionName == object["collectionName"] as? String)
      #expect(item.artistName == object["artistName"] as? String)
      #expect(item.kind == object["kind"] as? String)
      #expect(item.wrapperType == object["wrapperType"] as? String)
      #expect(item.trackTimeMillis == object["trackTimeMillis"] as? Int)
      let price = (object["trackPrice"] ?? object["collectionPrice"] ?? object["price"]) as? NSNumber
      #expect(item.price == price?.doubleValue)
      let artwork = ["artworkUrl600", "artworkUrl512", "artworkUrl100", "artworkUrl60", "artworkUrl30"]
        .lazy.compactMap { object[$0] as? String }.first
      #expect(item.artworkUrl == artwork)
      // iTunes writes a date and a time; the item keeps the date, as written, and its year.
      let date = (object["releaseDate"] as? String).map { String($0.prefix(10)) }
      #expect(item.releaseDate == date)
      #expect(item.releaseYear == date.flatMap { Int($0.prefix(4)) })
    }
  }

  @Test(.enabled(if: !files.isEmpty), arguments: files)
  func decodedFixtureItemsSurviveOurOwnEncoding(file: URL) throws {
    let items = try JSONDecoder().decode(ITunesResponse.self, from: Data(contentsOf: file)).results
    let written = try JSONEncoder().encode(items)
    #expect(try JSONDecoder().decode([SearchItem].self, from: written) == items)
  }

  @Test(.enabled(if: !sharedFiles.isEmpty, Comment(rawValue: SharedFixtures.absentNote)))
  func spotChecksOfKnownFixturesMatchTheirRawValues() throws {
    // Named fixtures whose shape is known from SOURCES.md: a 3-song answer, a mixed answer with
    // audiobooks (no kind, no trackId) and a podcast lookup; values come from the files.
    for name in ["music-abba-limit3.json", "all-radiohead-limit200.json", "podcast-stories-lookup.json"] {
      let file = try #require(Self.files.first { $0.lastPathComponent == name }, "missing fixture \(name)")
      let data = try Data(contentsOf: file)
      let raw = try RawAnswer(data)
      let items = try JSONDecoder().decode(ITunesResponse.self, from: data).results
      let first = try #require(items.first)
      let object = try #require(raw.results.first)
      #expect(first.title == (object["trackName"] ?? object["collectionName"]) as? String)
      #expect(first.feedUrl == object["feedUrl"] as? String)
      #expect(first.releaseDate == (object["releaseDate"] as? String).map { String($0.prefix(10)) })
      #expect(first.previewUrl == object["previewUrl"] as? String)
      #expect(first.primaryGenreName == object["primaryGenreName"] as? String)
    }
    let mixed = try #require(Self.files.first { $0.lastPathComponent == "all-radiohead-limit200.json" })
    let raw = try RawAnswer(Data(contentsOf: mixed))
    let items = try JSONDecoder().decode(ITunesResponse.self, from: Data(contentsOf: mixed)).results
    let audiobooks = zip(items, raw.results).filter { $0.1["wrapperType"] as? String == "audiobook" }
    #expect(!audiobooks.isEmpty)
    for (item, object) in audiobooks {
      #expect(item.id == object["collectionId"] as? Int)
      #expect(item.trackId == nil)
    }
  }
}

/// The same answer read by `JSONSerialization`: an independent reader to compare the decoder to.
private struct RawAnswer {
  var resultCount: Int?
  var results: [[String: Any]]

  init(_ data: Data) throws {
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    resultCount = object["resultCount"] as? Int
    results = try #require(object["results"] as? [[String: Any]])
  }
}
