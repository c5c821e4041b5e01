// `JSONLinesEncoder.encode(_ item:)`: the one-line form of an item, which the interactive screen
// prints for the selection, is the item exactly as a `results` event carries it.
import Foundation
import Pipeline
import Testing

@Suite struct ItemLineEncodingTests {
  @Test func itemLineIsTheItemOfAResultsEventOnOneLine() throws {
    let item = SearchItem(
      id: 7, kind: "song", trackName: "Shake \"It\" Off", collectionName: "1989", artistName: "Taylor Swift",
      releaseDate: "2014-08-18T07:00:00Z", trackTimeMillis: 219_200, price: 1.29)
    let line = JSONLinesEncoder().encode(item)
    #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
    let event = SearchEvent(
      seq: 1, atMilliseconds: 0,
      kind: .results(
        term: "t", source: .load,
        categories: [CategoryResult(category: .music, outcome: .items([item], from: .catalog))],
        elapsedMilliseconds: 0))
    #expect(JSONLinesEncoder().encode(event).contains("\"items\":[" + line.dropLast() + "]"))
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    #expect(object?["title"] as? String == "Shake \"It\" Off")
    #expect(object?["duration_ms"] as? Int == 219_200)
  }
}
