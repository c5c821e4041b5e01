// The lenient decoding rules of SearchItem and ITunesResponse, on small hand-written answers.
import Foundation
import ITunes
import Pipeline
import Testing

@Suite struct ITunesDecodingTests {
  private func decode(_ json: String) throws -> ITunesResponse {
    try JSONDecoder().decode(ITunesResponse.self, from: Data(json.utf8))
  }

  @Test func identifierFallsBackFromTrackToCollectionToArtist() throws {
    let response = try decode(
      """
      {"resultCount": 3, "results": [
        {"trackId": 1, "collectionId": 2, "artistId": 3},
        {"collectionId": 20, "artistId": 30},
        {"artistId": 300, "wrapperType": "artist"}
      ]}
      """)
    #expect(response.results.map(\.id) == [1, 20, 300])
  }

  @Test func resultsWithoutIdentifierAreSkippedAndCounted() throws {
    let response = try decode(
      """
      {"resultCount": 4, "results": [
        {"trackId": 1}, {"trackName": "no id"}, {"trackId": "7"}, 42, {"artistId": 5}
      ]}
      """)
    #expect(response.results.map(\.id) == [1, 5])
    #expect(response.skippedCount == 3)
    #expect(response.resultCount == 4)
  }

  @Test func fieldOfTheWrongTypeBecomesNilWithoutLosingTheResult() throws {
    let response = try decode(
      """
      {"results": [{"trackId": 9, "trackName": 12, "trackTimeMillis": "long", "artistName": "A",
        "trackPrice": "free", "collectionPrice": 1.29, "unknownField": {"nested": true}}]}
      """)
    let item = try #require(response.results.first)
    #expect(item.trackName == nil)
    #expect(item.trackTimeMillis == nil)
    #expect(item.artistName == "A")
    #expect(item.price == 1.29)
    #expect(response.resultCount == nil)
  }

  @Test func artworkIsTheLargestPresentAndPriceTheFirstPresent() throws {
    let response = try decode(
      """
      {"results": [
        {"trackId": 1, "artworkUrl30": "a30", "artworkUrl60": "a60", "artworkUrl100": "a100",
         "trackPrice": 0.99, "collectionPrice": 9.99},
        {"trackId": 2, "artworkUrl30": "b30", "artworkUrl600": "b600", "price": 4.99}
      ]}
      """)
    #expect(response.results.map(\.artworkUrl) == ["a100", "b600"])
    #expect(response.results.map(\.artworkUrl100) == ["a100", nil])
    #expect(response.results.map(\.price) == [0.99, 4.99])
  }

  @Test func ourOwnShapeRoundTripsThroughEncoding() throws {
    let item = SearchItem(
      id: 5, kind: "song", trackId: 77, trackName: "Track", artworkUrl100: "small",
      artworkUrl: "large", price: 1.5, popularity: 3
    )
    let data = try JSONEncoder().encode(item)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["id"] as? Int == 5)
    #expect(try JSONDecoder().decode(SearchItem.self, from: data) == item)
  }

  @Test func missingIdentifierFailsASingleItem() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(SearchItem.self, from: Data(#"{"trackName": "x"}"#.utf8))
    }
  }

  @Test func answerThatIsNotAnObjectFails() {
    #expect(throws: DecodingError.self) { try decode("[1, 2]") }
    #expect(throws: DecodingError.self) { try decode(#"{"results": 3}"#) }
  }
}
