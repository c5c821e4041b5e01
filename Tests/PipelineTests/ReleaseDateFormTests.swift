// The one form of a release date, `YYYY-MM-DD`, `YYYY-MM` or `YYYY`: what each way of making an
// item (its initialiser, its setter, decoding, a stored answer of an earlier version) keeps, and
// the year read from it.
import Foundation
import Testing

@testable import Pipeline

@Suite struct ReleaseDateFormTests {
  static let forms: [(written: String?, kept: String?)] = [
    ("2011-08-09T00:00:00Z", "2011-08-09"),
    ("2014-08-18T07:00:00Z", "2014-08-18"),
    ("2017-06-14T21:51:00-07:00", "2017-06-14"),
    ("2011-08-09", "2011-08-09"),
    ("2011-08", "2011-08"),
    ("2011", "2011"),
    ("0001", "0001"),
    ("2000-02-29", "2000-02-29"),
    ("1900-02-29", nil),
    ("2011-02-30T00:00:00Z", nil),
    ("2011-13-01", nil),
    ("2011-00", nil),
    ("0000", nil),
    ("201", nil),
    ("20110809", nil),
    ("2011/08/09", nil),
    ("2011-08-09 10:00", nil),
    ("٢٠١١", nil),
    ("soon", nil),
    ("", nil),
    (nil, nil),
  ]

  @Test(arguments: forms)
  func eachWayOfMakingAnItemKeepsTheOneForm(written: String?, kept: String?) throws {
    #expect(SearchItem(id: 1, releaseDate: written).releaseDate == kept)
    var item = SearchItem(id: 1, releaseDate: "1970")
    item.releaseDate = written
    #expect(item.releaseDate == kept)
    #expect(item.releaseYear == kept.flatMap { Int($0.prefix(4)) })
    let json = written.map { #"{"trackId": 1, "releaseDate": "\#($0)"}"# } ?? #"{"trackId": 1}"#
    #expect(try JSONDecoder().decode(SearchItem.self, from: Data(json.utf8)).releaseDate == kept)
  }

  @Test func aStoredAnswerOfAnEarlierVersionIsReadInTheOneForm() throws {
    // An earlier version stored iTunes' date and time as they came; made here without the
    // initialiser, which would take the form at once.
    var fields = SearchItem(id: 7, trackName: "Shake It Off").fields
    fields.releaseDate = "2014-08-18T07:00:00Z"
    let old = SearchItem(fields: fields)
    #expect(old.releaseDate == "2014-08-18T07:00:00Z")
    let read = try #require(StoredItemsCoding.decode(StoredItemsCoding.encode([.music: [old]])))
    #expect(read[.music]?.first?.releaseDate == "2014-08-18")
    #expect(read[.music]?.first?.releaseYear == 2014)
  }

  @Test func theBuiltInCatalogsItemsWriteTheirYearBesideTheirDate() throws {
    let catalog = BuiltInCatalog.shared
    let dated = try #require((0..<catalog.count).lazy.map { catalog.item(at: $0) }.first { $0.releaseDate != nil })
    let date = try #require(dated.releaseDate)
    #expect(dated.releaseYear == Int(date.prefix(4)))
    let line = JSONLinesEncoder().encode(Self.results([dated]))
    #expect(line.contains(#""release_date":"\#(date)","release_year":\#(date.prefix(4))"#), "\(line)")
    // The same item with fields of its own writes the same.
    var copy = dated
    copy.trackName = dated.trackName
    let copied = JSONLinesEncoder().encode(Self.results([copy]))
    #expect(copied.contains(#""release_date":"\#(date)","release_year":\#(date.prefix(4))"#), "\(copied)")
  }

  static func results(_ items: [SearchItem]) -> SearchEvent {
    SearchEvent(
      seq: 1, atMilliseconds: 0,
      kind: .results(
        term: "x", source: .load,
        categories: [CategoryResult(category: .music, outcome: .items(items, from: .catalog))],
        elapsedMilliseconds: 0))
  }
}
