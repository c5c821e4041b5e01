// `JSONLinesEncoder.encode(_ item:)`: the one-line form of an item, which the interactive screen
// prints for the selection, is the item exactly as a `results` event carries it.
import Catalog
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

/// Built-in items' JSON is kept once written and copied after: a copy is the item as written.
@Suite struct BuiltInItemEncodingTests {
  @Test func anItemWrittenAgainIsTheSameBytesAsTheFirstTime() throws {
    // Items far into the catalog, so that no other test is likely to have written them first.
    let all = CatalogSource.builtInItems
    let items = Array(all[(all.count - 40)...])
    func event(_ items: [SearchItem]) -> SearchEvent {
      SearchEvent(
        seq: 1, atMilliseconds: 0,
        kind: .results(
          term: "t", source: .load,
          categories: [CategoryResult(category: .music, outcome: .items(items, from: .catalog))],
          elapsedMilliseconds: 0))
    }
    let lines = items.map { JSONLinesEncoder().encode($0) }
    // Once each as written, then each twice in one event (written, or copied, then copied).
    let first = JSONLinesEncoder().encode(event(items))
    let twice = JSONLinesEncoder().encode(event(items + items))
    let expected = lines.map { $0.dropLast() }.joined(separator: ",")
    #expect(first.contains("\"items\":[" + expected + "]"))
    #expect(twice.contains("\"items\":[" + expected + "," + expected + "]"))
    #expect(items.map { JSONLinesEncoder().encode($0) } == lines)
    for (item, line) in zip(items, lines) {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["id"] as? Int == item.id)
      #expect(object?["title"] as? String == item.title)
    }
  }
}
