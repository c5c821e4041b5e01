// One item of the generated catalog in compact form: numbers and the ids of its names, about 48
// bytes, from which the whole `SearchItem` (URLs, date, prices…) is rendered when it is needed.
import Pipeline

/// What the generator decided about one item; `item(index:names:)` renders it.
///
/// A `SearchItem` of the generated catalog holds about a kilobyte (five URLs, a date, names,
/// twenty optional fields); the built-in catalog keeps 12,000 of these records instead and
/// renders only the items of an answer. The URLs and the date are functions of the numbers
/// here, so nothing is lost.
struct GeneratedRecord {
  /// The three kinds the generator makes.
  enum Kind: UInt8 {
    case song, movie, podcast
  }

  /// The id of generated item number 0; item `index` has id `firstTrackId + index`.
  static let firstTrackId = 1_400_000_000

  var kind: Kind
  var month: UInt8 = 1
  var day: UInt8 = 1
  var year: UInt16 = 2000
  var popularity: Int32 = 0
  /// Name ids (positions in the catalog's name table).
  var trackName: UInt32
  /// Songs: the album; podcasts: the title again; movies: unused.
  var collectionName: UInt32 = 0
  /// Songs: the artist; movies: the director; podcasts: the host.
  var artistName: UInt32
  var genre: UInt32
  /// Songs only.
  var collectionId: Int32 = 0
  /// Songs only.
  var artistId: Int32 = 0
  /// Songs and movies.
  var trackTimeMillis: Int32 = 0
  var price: Double = 0

  /// The category the record's kind belongs to.
  var category: Category {
    switch kind {
    case .song: .music
    case .movie: .movies
    case .podcast: .podcasts
    }
  }

  /// The whole item: record `index` of the catalog, its names looked up in `names`.
  func item(index: Int, names: [String]) -> SearchItem {
    let id = Self.firstTrackId + index
    var item =
      switch kind {
      case .song: song(id: id, names: names)
      case .movie: movie(id: id, names: names)
      case .podcast: podcast(id: id, names: names)
      }
    item.releaseDate = CatalogFormat.releaseDate(year: Int(year), month: Int(month), day: Int(day))
    item.popularity = Int(popularity)
    return item
  }

  private func song(id: Int, names: [String]) -> SearchItem {
    let collectionId = Int(collectionId)
    return SearchItem(
      id: id, wrapperType: "track", kind: "song", trackId: id, collectionId: collectionId,
      artistId: Int(artistId), trackName: names[Int(trackName)], collectionName: names[Int(collectionName)],
      artistName: names[Int(artistName)],
      trackViewUrl: "https://catalog.invalid/song/\(id)",
      collectionViewUrl: "https://catalog.invalid/album/\(collectionId)",
      previewUrl: "https://catalog.invalid/preview/\(id).m4a",
      artworkUrl100: CatalogFormat.artwork(collectionId, size: 100),
      artworkUrl: CatalogFormat.artwork(collectionId, size: 600),
      primaryGenreName: names[Int(genre)], trackTimeMillis: Int(trackTimeMillis), price: price,
      currency: "USD", country: "USA")
  }

  private func movie(id: Int, names: [String]) -> SearchItem {
    SearchItem(
      id: id, wrapperType: "track", kind: "feature-movie", trackId: id, trackName: names[Int(trackName)],
      artistName: names[Int(artistName)],
      trackViewUrl: "https://catalog.invalid/movie/\(id)",
      previewUrl: "https://catalog.invalid/preview/\(id).m4v",
      artworkUrl100: CatalogFormat.artwork(id, size: 100), artworkUrl: CatalogFormat.artwork(id, size: 600),
      primaryGenreName: names[Int(genre)], trackTimeMillis: Int(trackTimeMillis), price: price,
      currency: "USD", country: "USA")
  }

  private func podcast(id: Int, names: [String]) -> SearchItem {
    SearchItem(
      id: id, wrapperType: "track", kind: "podcast", trackId: id, collectionId: id,
      trackName: names[Int(trackName)], collectionName: names[Int(collectionName)],
      artistName: names[Int(artistName)], trackViewUrl: "https://catalog.invalid/podcast/\(id)",
      collectionViewUrl: "https://catalog.invalid/podcast/\(id)",
      artworkUrl100: CatalogFormat.artwork(id, size: 100), artworkUrl: CatalogFormat.artwork(id, size: 600),
      primaryGenreName: names[Int(genre)], price: price, currency: "USD", country: "USA",
      feedUrl: "https://catalog.invalid/feed/\(id).xml")
  }
}
