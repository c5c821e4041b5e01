// One result of a search, in the shape of an iTunes Search API result.

/// One result: a song, a movie, a podcast…, decoded from an iTunes Search API result.
///
/// Every field but `id` is optional, because iTunes omits what does not apply; unknown fields
/// are ignored. `id` is the first present of `trackId`, `collectionId` and `artistId`.
/// Decoding is lenient (SearchItem+Decoding.swift): a field of the wrong type reads as nil.
/// Encoding writes our own shape (with `id` and `artworkUrl`), which decodes back to the same item.
public struct SearchItem: Sendable, Hashable, Codable {
  /// The identifier: `trackId`, else `collectionId`, else `artistId`.
  public var id: Int
  /// iTunes' `wrapperType`: "track", "collection", "artist", "audiobook", "software"…
  public var wrapperType: String?
  /// iTunes' `kind`: "song", "feature-movie", "podcast", "podcast-episode"…
  public var kind: String?
  /// The track's identifier, when the item is a track.
  public var trackId: Int?
  /// The identifier of the collection (album, show, podcast) the item is or belongs to.
  public var collectionId: Int?
  /// The artist's identifier.
  public var artistId: Int?
  /// The track's name.
  public var trackName: String?
  /// The collection's name.
  public var collectionName: String?
  /// The artist's name.
  public var artistName: String?
  /// The track's page in the store.
  public var trackViewUrl: String?
  /// The collection's page in the store.
  public var collectionViewUrl: String?
  /// A short preview of the media.
  public var previewUrl: String?
  /// The 100×100 artwork, as iTunes sends it.
  public var artworkUrl100: String?
  /// The largest artwork URL present (artworkUrl600, 512, 100, 60, 30, in that order).
  public var artworkUrl: String?
  /// The release date as iTunes writes it (ISO 8601), kept as text.
  public var releaseDate: String?
  /// The main genre, e.g. "Rock".
  public var primaryGenreName: String?
  /// The duration in milliseconds.
  public var trackTimeMillis: Int?
  /// `trackPrice`, else `collectionPrice`, else `price`.
  public var price: Double?
  /// The currency of `price`, e.g. "USD".
  public var currency: String?
  /// The store's country as iTunes writes it, e.g. "USA".
  public var country: String?
  /// A podcast's RSS feed.
  public var feedUrl: String?
  /// How popular the item is in an offline catalog (higher first); nil from iTunes.
  public var popularity: Int?

  /// Creates an item; every field but `id` may be left out.
  public init(
    id: Int, wrapperType: String? = nil, kind: String? = nil, trackId: Int? = nil,
    collectionId: Int? = nil, artistId: Int? = nil, trackName: String? = nil,
    collectionName: String? = nil, artistName: String? = nil, trackViewUrl: String? = nil,
    collectionViewUrl: String? = nil, previewUrl: String? = nil, artworkUrl100: String? = nil,
    artworkUrl: String? = nil, releaseDate: String? = nil, primaryGenreName: String? = nil,
    trackTimeMillis: Int? = nil, price: Double? = nil, currency: String? = nil,
    country: String? = nil, feedUrl: String? = nil, popularity: Int? = nil
  ) {
    self.id = id
    self.wrapperType = wrapperType
    self.kind = kind
    self.trackId = trackId
    self.collectionId = collectionId
    self.artistId = artistId
    self.trackName = trackName
    self.collectionName = collectionName
    self.artistName = artistName
    self.trackViewUrl = trackViewUrl
    self.collectionViewUrl = collectionViewUrl
    self.previewUrl = previewUrl
    self.artworkUrl100 = artworkUrl100
    self.artworkUrl = artworkUrl
    self.releaseDate = releaseDate
    self.primaryGenreName = primaryGenreName
    self.trackTimeMillis = trackTimeMillis
    self.price = price
    self.currency = currency
    self.country = country
    self.feedUrl = feedUrl
    self.popularity = popularity
  }

  /// The name to show: the track's, else the collection's, else the artist's.
  public var title: String? { trackName ?? collectionName ?? artistName }
}
