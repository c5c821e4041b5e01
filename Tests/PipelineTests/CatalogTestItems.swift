// Small hand-made catalogs for the catalog tests, where every rank is known in advance.
import Pipeline

enum CatalogTestItems {
  static func song(_ id: Int, _ title: String, artist: String = "Someone", popularity: Int) -> SearchItem {
    SearchItem(
      id: id, wrapperType: "track", kind: "song", trackId: id, trackName: title, collectionName: "Album \(id)",
      artistName: artist, popularity: popularity)
  }

  static func movie(_ id: Int, _ title: String, director: String = "Someone", popularity: Int) -> SearchItem {
    SearchItem(
      id: id, wrapperType: "track", kind: "feature-movie", trackId: id, trackName: title, artistName: director,
      popularity: popularity)
  }

  /// One song per ranking tier for the query "star", plus songs that must not match.
  static let tiers: [SearchItem] = [
    song(1, "Stir It Up", popularity: 100),  // one typo from "star": only if nothing else matched
    song(2, "Rockstar Days", popularity: 99),  // "star" inside a word: never
    song(3, "Lone Star", popularity: 50),  // a word starts with "star"
    song(4, "Starlight", popularity: 1),  // the name starts with "star"
    song(5, "Moon River", popularity: 100),  // no match
    song(6, "Stone Cold", popularity: 100),  // two edits away: no match
  ]
}
