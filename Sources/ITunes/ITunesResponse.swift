// The envelope of an iTunes Search API answer: `{"resultCount": n, "results": [...]}`.
import Pipeline

/// A decoded iTunes Search API answer.
///
/// Results without an identifier are skipped and counted in `skippedCount` rather than failing
/// the whole answer; every other result decodes leniently (see `SearchItem.init(from:)`).
package struct ITunesResponse: Sendable, Hashable, Decodable {
  /// The `resultCount` iTunes reported, nil when absent or not an integer.
  package var resultCount: Int?
  /// The results that carry an identifier, in the order of the answer.
  package var results: [SearchItem]
  /// How many results were dropped because they had no identifier (or were not objects).
  package var skippedCount: Int

  /// Creates a response from parts.
  package init(resultCount: Int?, results: [SearchItem], skippedCount: Int = 0) {
    self.resultCount = resultCount
    self.results = results
    self.skippedCount = skippedCount
  }

  private enum CodingKeys: String, CodingKey { case resultCount, results }

  /// Decodes an answer; a missing `results` key reads as no results.
  ///
  /// - Throws: `DecodingError` when the body is not a JSON object, or `results` is not an array.
  package init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    resultCount = (try? values.decodeIfPresent(Int.self, forKey: .resultCount)) ?? nil
    let slots = try values.decodeIfPresent([MaybeItem].self, forKey: .results) ?? []
    results = slots.compactMap(\.item)
    skippedCount = slots.count - results.count
  }
}

/// One slot of `results`: always decodes, so that one bad result moves the array on instead of
/// failing it (an unkeyed container does not advance past an element that failed to decode).
private struct MaybeItem: Decodable {
  let item: SearchItem?

  init(from decoder: any Decoder) throws {
    item = try? SearchItem(from: decoder)
  }
}
